/** Configuration of the webhook service. */
package dev.cryptopay.webhooks.config;
