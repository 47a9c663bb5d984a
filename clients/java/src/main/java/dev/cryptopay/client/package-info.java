/**
 * The Java client's hand-written part: {@code CryptoPayClient} (set-up), {@code Transport} (signing, idempotency keys,
 * retries), {@code ErrorResponses} and {@code CryptoPayException}, {@code Pages}. The operations and models are
 * generated from the services' API descriptions at build time.
 */
package dev.cryptopay.client;
