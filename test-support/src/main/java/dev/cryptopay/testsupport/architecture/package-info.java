/** The architecture rules every service's build checks (ArchUnit), with the breaches that remain listed per service. */
package dev.cryptopay.testsupport.architecture;
