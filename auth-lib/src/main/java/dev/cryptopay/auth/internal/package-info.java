/** Service-to-service identity: merchant identity headers and the HMAC token that proves the gateway set them. */
package dev.cryptopay.auth.internal;
