/** Settings and wiring of the merchant-facing server. */
package dev.cryptopay.gateway.config;
