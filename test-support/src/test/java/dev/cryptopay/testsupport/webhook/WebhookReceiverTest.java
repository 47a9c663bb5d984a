package dev.cryptopay.testsupport.webhook;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cryptopay.testsupport.webhook.WebhookReceiver.Reply;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class WebhookReceiverTest {

    private final HttpClient http = HttpClient.newHttpClient();

    @Test
    void recordsEachRequestAndAnswersTheScriptThenTheRule() throws Exception {
        try (WebhookReceiver receiver = new WebhookReceiver()
                .script(new Reply(429, Map.of("Retry-After", "7"), Duration.ZERO))
                .failFirst(2)) {
            HttpResponse<String> first = post(receiver.url(), "{\"n\":1}", "X-Service-Event-Id", "evt-1");
            HttpResponse<String> second = post(receiver.url("/other"), "{\"n\":2}", "X-Service-Event-Id", "evt-2");
            HttpResponse<String> third = post(receiver.url(), "{\"n\":3}", "X-Service-Event-Id", "evt-3");

            assertThat(first.statusCode()).isEqualTo(429);
            assertThat(first.headers().firstValue("Retry-After")).hasValue("7");
            assertThat(second.statusCode()).as("call 2 is within failFirst(2)").isEqualTo(500);
            assertThat(third.statusCode()).isEqualTo(200);

            assertThat(receiver.received())
                    .extracting(WebhookReceiver.Received::call)
                    .containsExactly(1, 2, 3);
            WebhookReceiver.Received received = receiver.received().get(1);
            assertThat(received.path()).isEqualTo("/other");
            assertThat(received.header("x-service-event-id")).isEqualTo("evt-2");
            assertThat(received.bodyText()).isEqualTo("{\"n\":2}");
        }
    }

    @Test
    void aDelayedReplyDoesNotHoldUpTheNextCall() throws Exception {
        try (WebhookReceiver receiver = new WebhookReceiver().script(new Reply(200, Map.of(), Duration.ofSeconds(3)))) {
            var slow = http.sendAsync(request(receiver.url(), "slow"), HttpResponse.BodyHandlers.ofString());
            while (receiver.received().isEmpty()) {
                Thread.sleep(10);
            }
            long started = System.nanoTime();
            assertThat(post(receiver.url(), "fast").statusCode()).isEqualTo(200);
            assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(2));
            assertThat(slow.get().statusCode()).isEqualTo(200);
        }
    }

    @Test
    void hmacMatchesTheRfc4231Vector() {
        // RFC 4231 test case 2: key "Jefe", data "what do ya want for nothing?".
        assertThat(WebhookReceiver.hmacHex("Jefe", "what do ya want for nothing?".getBytes(StandardCharsets.UTF_8)))
                .isEqualTo("5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
    }

    private HttpResponse<String> post(String url, String body, String... headers) throws Exception {
        return http.send(request(url, body, headers), HttpResponse.BodyHandlers.ofString());
    }

    private static HttpRequest request(String url, String body, String... headers) {
        HttpRequest.Builder builder =
                HttpRequest.newBuilder(URI.create(url)).POST(HttpRequest.BodyPublishers.ofString(body));
        if (headers.length > 0) {
            builder.headers(headers);
        }
        return builder.build();
    }
}
