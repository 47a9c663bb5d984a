/** Spring Cloud Gateway application: the suite's single entry point. */
package dev.cryptopay.gateway;
