/** Idempotency-Key support: a retried POST returns the first response instead of creating twice. */
package dev.cryptopay.paymentlinks.idempotency;
