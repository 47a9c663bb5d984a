/** Reads domain events from every *.events topic, stores each once and fans it out into deliveries. */
package dev.cryptopay.webhooks.intake;
