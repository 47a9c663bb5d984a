/**
 * Checking a webhook delivery on the merchant's side: {@code WebhookVerifier} checks the timestamped signature, its age
 * and that the event id was not accepted before.
 */
package dev.cryptopay.client.webhook;
