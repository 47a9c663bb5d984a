/**
 * The merchant's events as received, with each one's deliveries: {@code GET /events} (filtered by the object an event
 * is about, its type and time) and {@code GET /events/{id}}.
 */
package dev.cryptopay.webhooks.event;
