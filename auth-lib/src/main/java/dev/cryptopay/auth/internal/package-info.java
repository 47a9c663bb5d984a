/**
 * Service-to-service trust: merchant identity headers, the internal callers (gateway, chain watcher) and the Ed25519
 * token, bound to its receiver and the whole request, that proves which caller sent it.
 */
package dev.cryptopay.auth.internal;
