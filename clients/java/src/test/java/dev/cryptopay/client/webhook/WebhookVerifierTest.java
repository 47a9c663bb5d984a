package dev.cryptopay.client.webhook;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cryptopay.auth.webhook.WebhookSignature;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Deliveries signed the way webhook-service signs them, checked by the client's verifier. */
class WebhookVerifierTest {

    private static final String SECRET = "whsec_7pX3mJ0y1wq0uTj0Cw6d1n3qvH2hQ0w7nq7y6dQyH5c=";
    private static final Instant NOW = Instant.parse("2026-11-23T08:00:00Z");
    private static final byte[] BODY =
            "{\"id\":\"evt_1\",\"type\":\"payment.completed\",\"data\":{\"amount\":\"25.00\"}}"
                    .getBytes(StandardCharsets.UTF_8);

    private final Clock clock = Clock.fixed(NOW, ZoneOffset.UTC);
    private final WebhookVerifier verifier = new WebhookVerifier(
            SECRET, WebhookVerifier.DEFAULT_TOLERANCE, clock, new WebhookVerifier.InMemorySeenEvents(clock));

    private static Map<String, Object> delivery(String eventId, long timestamp, byte[] signedBody) {
        Map<String, Object> headers = new HashMap<>();
        headers.put("x-service-event-id", eventId);
        headers.put("X-Service-Timestamp", List.of(Long.toString(timestamp)));
        headers.put("X-SERVICE-TIMESTAMPED-SIGNATURE", WebhookSignature.signTimestamped(SECRET, timestamp, signedBody));
        headers.put("X-Service-Signature", WebhookSignature.sign(SECRET, signedBody));
        return headers;
    }

    @Test
    void aDeliveryIsAcceptedOnceThenItsReplayIsRefused() throws Exception {
        Map<String, Object> headers = delivery("evt_1", NOW.getEpochSecond() - 10, BODY);

        assertThat(verifier.verify(headers, BODY)).isEqualTo("evt_1");
        assertThatThrownBy(() -> verifier.verify(headers, BODY))
                .isInstanceOf(WebhookVerificationException.class)
                .hasMessageContaining("replay");
    }

    @Test
    void aForgottenEventIsAcceptedAgain() throws Exception {
        verifier.verify(delivery("evt_2", NOW.getEpochSecond(), BODY), BODY);
        verifier.forget("evt_2");

        assertThat(verifier.verify(delivery("evt_2", NOW.getEpochSecond(), BODY), BODY))
                .isEqualTo("evt_2");
    }

    @Test
    void aChangedBodyIsRefused() {
        byte[] changed = new String(BODY, StandardCharsets.UTF_8)
                .replace("25.00", "2500")
                .getBytes(StandardCharsets.UTF_8);

        assertThatThrownBy(() -> verifier.verify(delivery("evt_3", NOW.getEpochSecond(), BODY), changed))
                .isInstanceOf(WebhookVerificationException.class)
                .hasMessage("wrong X-Service-Timestamped-Signature");
        assertThatThrownBy(() -> verifier.verifySignature(delivery("evt_3", NOW.getEpochSecond(), BODY), changed))
                .isInstanceOf(WebhookVerificationException.class)
                .hasMessage("wrong X-Service-Signature");
    }

    @Test
    void aTimestampOutsideTheToleranceIsRefusedEvenWithItsRightSignature() {
        long stale = NOW.minus(Duration.ofMinutes(6)).getEpochSecond();

        assertThatThrownBy(() -> verifier.verify(delivery("evt_4", stale, BODY), BODY))
                .isInstanceOf(WebhookVerificationException.class)
                .hasMessageContaining("outside the tolerance");
    }

    @Test
    void missingOrMalformedHeadersAreRefused() {
        Map<String, Object> noEventId = delivery("evt_5", NOW.getEpochSecond(), BODY);
        noEventId.remove("x-service-event-id");
        Map<String, Object> letters = delivery("evt_5", NOW.getEpochSecond(), BODY);
        letters.put("X-Service-Timestamp", "17e9");
        Map<String, Object> notHex = delivery("evt_5", NOW.getEpochSecond(), BODY);
        notHex.put("X-SERVICE-TIMESTAMPED-SIGNATURE", "zz");

        assertThatThrownBy(() -> verifier.verify(noEventId, BODY)).hasMessage("missing X-Service-Event-Id");
        assertThatThrownBy(() -> verifier.verify(letters, BODY)).hasMessage("malformed X-Service-Timestamp");
        assertThatThrownBy(() -> verifier.verify(notHex, BODY)).hasMessage("wrong X-Service-Timestamped-Signature");
    }

    @Test
    void theBodySignatureAloneIsCheckedForReceiversThatKeepNoIds() throws Exception {
        Map<String, Object> headers = delivery("evt_6", NOW.getEpochSecond(), BODY);

        verifier.verifySignature(headers, BODY);
        verifier.verifySignature(headers, BODY);
        assertThatThrownBy(() -> new WebhookVerifier(" ")).isInstanceOf(IllegalArgumentException.class);
    }
}
