/** Merchant signing/verification keys (Ed25519, RSA-PSS-SHA256): PEM/DER parsing, generation and raw sign/verify. */
package dev.cryptopay.auth.keys;
