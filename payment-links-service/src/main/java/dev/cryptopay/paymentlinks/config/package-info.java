/** Configuration of the payment-links service. */
package dev.cryptopay.paymentlinks.config;
