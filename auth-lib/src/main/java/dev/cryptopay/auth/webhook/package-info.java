/** Outgoing webhook authentication: {@code whsec_} secrets and hex HMAC-SHA256 body signatures. */
package dev.cryptopay.auth.webhook;
