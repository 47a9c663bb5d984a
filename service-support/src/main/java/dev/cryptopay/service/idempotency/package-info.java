/** The {@code Idempotency-Key} header on POSTs: the same key and body within the retention get the first response. */
package dev.cryptopay.service.idempotency;
