/** Stores the expiry of unpaid links and emits payment.failed for them; safe with several instances. */
package dev.cryptopay.paymentlinks.expiry;
