/** Identity headers and the internal token the gateway puts on every forwarded request. */
package dev.cryptopay.gateway.identity;
