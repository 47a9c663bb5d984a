/**
 * Non-custodial receiving: the merchant's BIP-32 extended public key per mode, and the deposit address each new
 * payment link gets from it (the next non-hardened child). The service never sees a private key.
 */
package dev.cryptopay.paymentlinks.receiving;
