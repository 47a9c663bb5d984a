/** Signed merchant requests: canonical request bytes, the signer used by clients and the verifier used by the gateway. */
package dev.cryptopay.auth.signature;
