/**
 * Delivery of events to endpoints: the {@link dev.cryptopay.webhooks.delivery.Delivery} aggregate and its status
 * moves, durable schedule in PostgreSQL, claims with FOR UPDATE SKIP LOCKED, signed HTTP attempts that refuse private
 * addresses and redirects, and the retry schedule.
 */
package dev.cryptopay.webhooks.delivery;
