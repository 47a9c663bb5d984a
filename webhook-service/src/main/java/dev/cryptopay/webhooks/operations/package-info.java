/** What on-call watches: consumer lag, intake freshness, delivery backlog, parked records, Kafka health. */
package dev.cryptopay.webhooks.operations;
