/**
 * {@code WebhookReceiver}: a real local HTTP endpoint that records every delivery and answers as a test scripts it.
 */
package dev.cryptopay.testsupport.webhook;
