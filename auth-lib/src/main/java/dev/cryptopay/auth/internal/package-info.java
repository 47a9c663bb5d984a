/**
 * Service-to-service trust: merchant identity headers, the internal callers (gateway, chain watcher) and the HMAC
 * token, bound to the whole request, that proves which caller sent it.
 */
package dev.cryptopay.auth.internal;
