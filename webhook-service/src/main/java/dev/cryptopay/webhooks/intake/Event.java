package dev.cryptopay.webhooks.intake;

import dev.cryptopay.auth.Mode;
import dev.cryptopay.auth.internal.MerchantIdentity;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.UUID;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A domain event as merchants receive it.
 *
 * @param body exactly what every attempt sends: {@code {id, type, created_at, data, livemode}}, a {@link WebhookBody}
 * @param objectId the payment link or subscription link the event is about ({@link #objectIdOf}), or null
 */
record Event(UUID id, String type, Instant createdAt, MerchantIdentity merchant, String body, UUID objectId) {

    /**
     * The members of {@code data} that name the event's object, in order of preference: {@code id} (the link of
     * {@code payment.*} and {@code wallet.deposit}), {@code payment_link_id} ({@code transfer.*},
     * {@code wallet.withdrawal}), {@code subscription_link_id}, then {@code subscriber_id} ({@code subscription.*},
     * before the customer enrolled). V5__event_object_id.sql applies the same rule to the events stored before.
     */
    static final List<String> OBJECT_ID_MEMBERS =
            List.of("id", "payment_link_id", "subscription_link_id", "subscriber_id");

    /**
     * Reads the envelope a producing service published ({@code id, type, created_at, merchant_id, mode, data}).
     *
     * @throws IllegalArgumentException saying what is wrong with it, the reason the record is parked
     */
    static Event fromEnvelope(JsonMapper json, String value) {
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
        UUID id = uuid(root, "id");
        String type = text(root, "type");
        Instant createdAt;
        try {
            createdAt = OffsetDateTime.parse(text(root, "created_at")).toInstant();
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException("created_at is not an ISO 8601 timestamp");
        }
        UUID merchantId = uuid(root, "merchant_id");
        Mode mode;
        try {
            mode = Mode.fromWireName(text(root, "mode"));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("mode must be test or live");
        }
        JsonNode data = root.get("data");
        if (data == null || !data.isObject()) {
            throw new IllegalArgumentException("data must be an object");
        }
        WebhookBody body =
                new WebhookBody(id.toString(), type, root.get("created_at").asString(), data, mode == Mode.LIVE);
        return new Event(
                id,
                type,
                createdAt,
                new MerchantIdentity(merchantId, mode),
                json.writeValueAsString(body),
                objectIdOf(data));
    }

    /** The first of {@link #OBJECT_ID_MEMBERS} that holds a UUID string (canonical form, any case), or null. */
    static UUID objectIdOf(JsonNode data) {
        for (String member : OBJECT_ID_MEMBERS) {
            JsonNode node = data.get(member);
            if (node != null && node.isString()) {
                try {
                    UUID id = UUID.fromString(node.asString());
                    if (id.toString().equalsIgnoreCase(node.asString())) {
                        return id;
                    }
                } catch (IllegalArgumentException notAUuid) {
                    // not an object id: the next member may be
                }
            }
        }
        return null;
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
