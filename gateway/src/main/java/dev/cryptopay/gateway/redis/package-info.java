/** The optional shared Redis: connection and the shared replay cache. */
package dev.cryptopay.gateway.redis;
