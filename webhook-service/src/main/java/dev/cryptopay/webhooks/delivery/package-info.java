/**
 * Delivery of events to endpoints: durable schedule in PostgreSQL, claims with FOR UPDATE SKIP LOCKED, signed HTTP
 * attempts that refuse private addresses and redirects, and the retry schedule.
 */
package dev.cryptopay.webhooks.delivery;
