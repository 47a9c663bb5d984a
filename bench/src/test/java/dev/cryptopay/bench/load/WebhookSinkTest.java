package dev.cryptopay.bench.load;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cryptopay.auth.webhook.WebhookSignature;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The pipeline's sink counts what it claims: signatures checked per endpoint, duplicates, latency per create. */
class WebhookSinkTest {

    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @Test
    void checksSignaturesCountsDuplicatesAndTimesEachCreate() throws Exception {
        long sentAt = System.nanoTime();
        try (WebhookSink sink = new WebhookSink()) {
            sink.secret("m0", "whsec_first");
            sink.secret("m1", "whsec_second");
            WebhookSink.Phase phase = sink.phase("p", index -> index == 7 ? sentAt : WebhookSink.NOT_SENT);

            assertThat(deliver(sink.url("m0"), "whsec_first", "event-1", "p-7")).isEqualTo(200);
            deliver(sink.url("m0"), "whsec_first", "event-1", "p-7"); // the same event again
            deliver(sink.url("m1"), "whsec_first", "event-2", "p-8"); // signed with another endpoint's secret
            deliver(sink.url("m1"), "whsec_second", "event-3", "p-8");
            deliver(sink.url("m1"), "whsec_second", "event-4", "other-1"); // not of a known phase

            assertThat(sink.duplicates()).isEqualTo(1);
            assertThat(sink.badSignatures()).isEqualTo(1);
            assertThat(sink.unknown()).isEqualTo(1);
            assertThat(phase.delivered).hasValue(2);
            assertThat(phase.deliveredIndexes).containsOnlyKeys(7, 8);
            assertThat(phase.latencyMicros.getTotalCount())
                    .as("only the create with a send time is timed")
                    .isEqualTo(1);
            assertThat(phase.latencyMicros.getMaxValue()).isPositive();
        }
    }

    private static int deliver(String url, String secret, String eventId, String orderId) throws Exception {
        byte[] body = ("{\"id\":\"" + eventId + "\",\"type\":\"payment.created\",\"data\":{\"order_id\":\"" + orderId
                        + "\"}}")
                .getBytes(StandardCharsets.UTF_8);
        HttpRequest.Builder request =
                HttpRequest.newBuilder(URI.create(url)).POST(HttpRequest.BodyPublishers.ofByteArray(body));
        Map.of("X-Service-Signature", WebhookSignature.sign(secret, body), "X-Service-Event-Id", eventId)
                .forEach(request::header);
        return HTTP.send(request.build(), HttpResponse.BodyHandlers.discarding())
                .statusCode();
    }
}
