package dev.cryptopay.webhooks.intake;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import dev.cryptopay.auth.Mode;
import dev.cryptopay.service.json.ServiceJson;
import java.time.Instant;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

/** Reading a producer's envelope, and the reasons a record is parked: no Spring, no Kafka, no database. */
class EventTest {

    /** The service's own mapper rules: the body is written in snake_case, in declaration order. */
    private static final JsonMapper JSON = ServiceJson.mapper();

    private static final String ID = "5f0c2a4e-8d1b-4c9e-9a47-3b1f6d2e8c10";
    private static final String MERCHANT = "0b6f7e1a-2c3d-4e5f-8a9b-0c1d2e3f4a5b";

    private static String envelope(String id, String createdAt, String mode, String data) {
        return "{\"id\":\"" + id + "\",\"type\":\"payment.created\",\"created_at\":\"" + createdAt
                + "\",\"merchant_id\":\"" + MERCHANT + "\",\"mode\":\"" + mode + "\",\"data\":" + data + "}";
    }

    @Test
    void anEnvelopeBecomesTheEventMerchantsReceive() {
        Event event = Event.fromEnvelope(
                JSON, envelope(ID, "2026-03-01T10:00:00.123Z", "live", "{\"id\":\"link-1\",\"amount\":\"10.5\"}"));

        assertThat(event.id()).isEqualTo(UUID.fromString(ID));
        assertThat(event.type()).isEqualTo("payment.created");
        assertThat(event.createdAt()).isEqualTo(Instant.parse("2026-03-01T10:00:00.123Z"));
        assertThat(event.merchant().merchantId()).isEqualTo(UUID.fromString(MERCHANT));
        assertThat(event.merchant().mode()).isEqualTo(Mode.LIVE);
        assertThat(event.body())
                .isEqualTo("{\"id\":\"" + ID + "\",\"type\":\"payment.created\","
                        + "\"created_at\":\"2026-03-01T10:00:00.123Z\",\"data\":{\"id\":\"link-1\",\"amount\":\"10.5\"},"
                        + "\"livemode\":true}");
    }

    @Test
    void theBodyRepeatsTheProducersTimestampAndDataExactly() {
        Event event = Event.fromEnvelope(
                JSON,
                envelope(
                        ID,
                        "2026-03-01T12:00:00.5+02:00",
                        "test",
                        "{\"amount\":1.10,\"nested\":{\"b\":[1,2.50],\"a\":null},\"note\":\"caf\u00e9\"}"));

        assertThat(event.createdAt()).isEqualTo(Instant.parse("2026-03-01T10:00:00.5Z"));
        assertThat(event.body())
                .isEqualTo("{\"id\":\"" + ID + "\",\"type\":\"payment.created\","
                        + "\"created_at\":\"2026-03-01T12:00:00.5+02:00\","
                        + "\"data\":{\"amount\":1.10,\"nested\":{\"b\":[1,2.50],\"a\":null},\"note\":\"caf\u00e9\"},"
                        + "\"livemode\":false}");
    }

    @Test
    void theObjectIsTheFirstMemberOfDataThatHoldsAUuid() {
        String link = "3f6c2a8e-5b1d-4e7a-9c0f-2d8b6a4e1c73";
        String subscriber = "7a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d";
        String at = "2026-03-01T10:00:00Z";
        assertThat(Event.fromEnvelope(JSON, envelope(ID, at, "test", "{\"id\":\"" + link + "\"}"))
                        .objectId())
                .isEqualTo(UUID.fromString(link));
        assertThat(Event.fromEnvelope(
                                JSON,
                                envelope(
                                        ID,
                                        at,
                                        "test",
                                        "{\"refund_id\":\"" + subscriber + "\",\"payment_link_id\":\""
                                                + link.toUpperCase() + "\"}"))
                        .objectId())
                .isEqualTo(UUID.fromString(link));
        assertThat(Event.fromEnvelope(
                                JSON,
                                envelope(
                                        ID,
                                        at,
                                        "test",
                                        "{\"subscription_link_id\":null,\"subscriber_id\":\"" + subscriber + "\"}"))
                        .objectId())
                .isEqualTo(UUID.fromString(subscriber));
        assertThat(Event.fromEnvelope(JSON, envelope(ID, at, "test", "{\"id\":\"link-1\",\"n\":5}"))
                        .objectId())
                .isNull();
        assertThat(Event.fromEnvelope(JSON, envelope(ID, at, "test", "{\"id\":\"1-2-3-4-5\"}"))
                        .objectId())
                .isNull();
        assertThat(Event.fromEnvelope(JSON, envelope(ID, at, "test", "{\"id\":7}"))
                        .objectId())
                .isNull();
    }

    @Test
    void saysWhyARecordIsNotAnEvent() {
        String at = "2026-03-01T10:00:00Z";
        expectReason(null, "record has no value");
        expectReason("[1,2]", "value is not a JSON object");
        expectReason(envelope("not-a-uuid", at, "test", "{}"), "id must be a UUID");
        expectReason(envelope(ID, "yesterday", "test", "{}"), "created_at is not an ISO 8601 timestamp");
        expectReason(envelope(ID, at, "TEST", "{}"), "mode must be test or live");
        expectReason(envelope(ID, at, "test", "[]"), "data must be an object");
        expectReason("{\"id\":\"" + ID + "\"}", "type is missing or not a string");
        assertThatIllegalArgumentException()
                .isThrownBy(() -> Event.fromEnvelope(JSON, "this is not json"))
                .withMessageStartingWith("value is not JSON: ");
    }

    private static void expectReason(String value, String reason) {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> Event.fromEnvelope(JSON, value))
                .withMessage(reason);
    }
}
