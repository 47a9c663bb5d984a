/** Supported currencies and their networks: reference data served to merchants and used to validate links. */
package dev.cryptopay.paymentlinks.currency;
