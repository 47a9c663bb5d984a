package dev.cryptopay.webhooks.intake;

import dev.cryptopay.auth.Mode;
import dev.cryptopay.auth.internal.MerchantIdentity;
import dev.cryptopay.service.events.ReceivedEnvelope;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
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
        ReceivedEnvelope read = ReceivedEnvelope.read(json, value);
        WebhookBody body = new WebhookBody(
                read.id().toString(), read.type(), read.createdAtText(), read.data(), read.mode() == Mode.LIVE);
        return new Event(
                read.id(),
                read.type(),
                read.createdAt(),
                new MerchantIdentity(read.merchantId(), read.mode()),
                json.writeValueAsString(body),
                objectIdOf(read.data()));
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
}
