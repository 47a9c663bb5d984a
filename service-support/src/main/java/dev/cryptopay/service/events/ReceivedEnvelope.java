package dev.cryptopay.service.events;

import dev.cryptopay.auth.Mode;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.UUID;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * An event record's value as a consumer reads it: the {@link EventEnvelope} members checked, {@code notify} kept when
 * it is an object. One reader for every consumer, so they agree on what is an event.
 *
 * @param createdAtText {@code created_at} exactly as the producer wrote it (its precision and offset)
 * @param notifyTo the {@code notify} member, or null when there is none
 */
public record ReceivedEnvelope(
        UUID id,
        String type,
        String createdAtText,
        Instant createdAt,
        UUID merchantId,
        Mode mode,
        JsonNode data,
        JsonNode notifyTo) {

    /**
     * Reads a record's value.
     *
     * @throws IllegalArgumentException saying what is wrong with it (the first problem found)
     */
    public static ReceivedEnvelope read(JsonMapper json, String value) {
        if (value == null) {
            throw new IllegalArgumentException("record has no value");
        }
        JsonNode root;
        try {
            root = json.readTree(value);
        } catch (JacksonException e) {
            throw new IllegalArgumentException("value is not JSON: " + e.getOriginalMessage());
        }
        if (root == null || !root.isObject()) {
            throw new IllegalArgumentException("value is not a JSON object");
        }
        UUID id = uuid(root, EventEnvelope.ID);
        String type = text(root, EventEnvelope.TYPE);
        String createdAtText = text(root, EventEnvelope.CREATED_AT);
        Instant createdAt;
        try {
            createdAt = OffsetDateTime.parse(createdAtText).toInstant();
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException("created_at is not an ISO 8601 timestamp");
        }
        UUID merchantId = uuid(root, EventEnvelope.MERCHANT_ID);
        Mode mode;
        try {
            mode = Mode.fromWireName(text(root, EventEnvelope.MODE));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("mode must be test or live");
        }
        JsonNode data = root.get(EventEnvelope.DATA);
        if (data == null || !data.isObject()) {
            throw new IllegalArgumentException("data must be an object");
        }
        JsonNode notify = root.get(EventEnvelope.NOTIFY);
        return new ReceivedEnvelope(
                id,
                type,
                createdAtText,
                createdAt,
                merchantId,
                mode,
                data,
                notify != null && notify.isObject() ? notify : null);
    }

    private static String text(JsonNode root, String field) {
        JsonNode node = root.get(field);
        if (node == null || !node.isString() || node.asString().isBlank()) {
            throw new IllegalArgumentException(field + " is missing or not a string");
        }
        return node.asString();
    }

    private static UUID uuid(JsonNode root, String field) {
        try {
            return UUID.fromString(text(root, field));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(field + " must be a UUID");
        }
    }
}
