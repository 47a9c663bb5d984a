/** Wire formats shared by every service: API keys, request signatures, webhook HMAC and internal identity tokens. */
package dev.cryptopay.auth;
