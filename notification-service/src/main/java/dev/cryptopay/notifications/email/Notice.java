package dev.cryptopay.notifications.email;

import dev.cryptopay.auth.Mode;
import dev.cryptopay.service.events.EventEnvelope;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.UUID;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A domain event as this service reads it: the envelope's members, with {@code notify} ({@code notifyTo}: whom to
 * write, null when the event names no one) beside {@code data}.
 */
public record Notice(
        UUID eventId, String type, Instant createdAt, UUID merchantId, Mode mode, JsonNode data, JsonNode notifyTo) {

    /**
     * Reads an event record's value.
     *
     * @throws IllegalArgumentException saying what is wrong with it (the record is passed over)
     */
    public static Notice fromEnvelope(JsonMapper json, String value) {
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
        Instant createdAt;
        try {
            createdAt =
                    OffsetDateTime.parse(text(root, EventEnvelope.CREATED_AT)).toInstant();
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException("created_at is not an ISO 8601 timestamp");
        }
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
        return new Notice(
                uuid(root, EventEnvelope.ID),
                text(root, EventEnvelope.TYPE),
                createdAt,
                uuid(root, EventEnvelope.MERCHANT_ID),
                mode,
                data,
                notify != null && notify.isObject() ? notify : null);
    }

    /** A string member of {@code notify}, or null when there is none. */
    public String notifyText(String member) {
        return notifyTo == null ? null : textOrNull(notifyTo, member);
    }

    /** A string member of {@code data}, or null when there is none. */
    public String dataText(String member) {
        return textOrNull(data, member);
    }

    private static String textOrNull(JsonNode node, String member) {
        JsonNode value = node.get(member);
        return value != null && value.isString() && !value.asString().isBlank() ? value.asString() : null;
    }

    private static String text(JsonNode root, String field) {
        String value = textOrNull(root, field);
        if (value == null) {
            throw new IllegalArgumentException(field + " is missing or not a string");
        }
        return value;
    }

    private static UUID uuid(JsonNode root, String field) {
        try {
            return UUID.fromString(text(root, field));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(field + " must be a UUID");
        }
    }
}
