/**
 * BIP-32 extended public keys on secp256k1: parsing and validating {@code xpub}/{@code tpub} text, public child
 * derivation, and writing keys back. Used for non-custodial receiving: a merchant's key yields a deposit address per
 * payment link without any private key leaving the merchant's wallet.
 */
package dev.cryptopay.auth.bip32;
