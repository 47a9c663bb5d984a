package dev.cryptopay.notifications.email;

import dev.cryptopay.auth.Mode;
import dev.cryptopay.service.events.ReceivedEnvelope;
import java.time.Instant;
import java.util.UUID;
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
        ReceivedEnvelope read = ReceivedEnvelope.read(json, value);
        return new Notice(
                read.id(), read.type(), read.createdAt(), read.merchantId(), read.mode(), read.data(), read.notifyTo());
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
}
