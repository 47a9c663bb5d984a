package dev.cryptopay.webhooks.intake;

import tools.jackson.databind.JsonNode;

/**
 * The body every attempt of an event's deliveries sends, written by the service's JSON mapper as
 * {@code {id, type, created_at, data, livemode}} (snake_case, declaration order).
 *
 * @param createdAt exactly the string the producer published, so the body repeats its precision and offset
 * @param data      the producer's {@code data} object as it arrived
 */
record WebhookBody(String id, String type, String createdAt, JsonNode data, boolean livemode) {}
