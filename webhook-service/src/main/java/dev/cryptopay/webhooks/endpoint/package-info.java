/** Webhook endpoints merchants register: URL, subscribed event types and the signing secret. */
package dev.cryptopay.webhooks.endpoint;
