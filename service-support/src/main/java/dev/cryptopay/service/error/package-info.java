/** The one error body of the suite: RFC 9457 problem details with stable {@code code} and {@code message}. */
package dev.cryptopay.service.error;
