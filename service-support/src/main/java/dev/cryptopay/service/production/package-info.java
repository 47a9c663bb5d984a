/**
 * The {@code production} profile's refusal to start with unsafe configuration: development secrets, short secrets,
 * private webhook addresses allowed, internal auth off. See docs/deployment.md, "Production configuration".
 */
package dev.cryptopay.service.production;
