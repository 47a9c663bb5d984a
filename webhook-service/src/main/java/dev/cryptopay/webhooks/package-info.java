/** Webhook service: endpoints, event intake from Kafka and signed, retried delivery to merchants. */
package dev.cryptopay.webhooks;
