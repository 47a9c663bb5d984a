/** The admin API on its own port and the bootstrap command line, sharing one set of operations. */
package dev.cryptopay.gateway.admin;
