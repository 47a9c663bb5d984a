/** Merchant signature authentication, merchant_key resolution, body reading and the replay guard. */
package dev.cryptopay.gateway.auth;
