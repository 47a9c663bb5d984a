/** Webhook service: endpoints and signed, retried delivery of domain events. */
package dev.cryptopay.webhooks;
