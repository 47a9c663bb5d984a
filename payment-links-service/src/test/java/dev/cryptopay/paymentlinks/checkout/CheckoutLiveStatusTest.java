package dev.cryptopay.paymentlinks.checkout;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cryptopay.auth.internal.MerchantIdentity;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.core.ParameterizedTypeReference;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;
import org.springframework.http.codec.ServerSentEvent;
import org.springframework.test.web.reactive.server.FluxExchangeResult;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;
import reactor.test.StepVerifier;
import tools.jackson.databind.JsonNode;

/**
 * The status the page polls and the event stream it listens to. The test base reads every 200 ms, sends a heartbeat
 * every second and caps open streams at 3 per instance.
 */
class CheckoutLiveStatusTest extends CheckoutTestBase {

    private static final ParameterizedTypeReference<ServerSentEvent<String>> EVENTS =
            new ParameterizedTypeReference<>() {};
    private static final Duration LIMIT = Duration.ofSeconds(30);

    @Autowired
    CheckoutStreams streams;

    @Test
    void theStatusRouteAnswersCustomerSafeJson() {
        MerchantIdentity merchant = merchantWithKey();
        String id = link(merchant, "2.5").get("id").asString();
        JsonNode awaiting = status(id);
        assertThat(awaiting.get("state").asString()).isEqualTo("awaiting_payment");
        assertThat(awaiting.get("title").asString()).isEqualTo("Awaiting payment");
        assertThat(awaiting.get("detail").asString()).startsWith("Send exactly 2.5 USDC on Local dev chain");
        assertThat(awaiting.get("terminal").asBoolean()).isFalse();
        assertThat(awaiting.get("amount_due").asString()).isEqualTo("2.5");
        assertThat(awaiting.get("currency").asString()).isEqualTo("USDC");
        assertThat(awaiting.has("expires_at")).isTrue();
        assertThat(awaiting.has("confirmations")).isFalse();

        report(id, "0xs1", "2.5", "pending", 4, 10);
        JsonNode detected = status(id);
        assertThat(detected.get("state").asString()).isEqualTo("detected");
        assertThat(detected.get("confirmations").asInt()).isEqualTo(4);
        assertThat(detected.get("required_confirmations").asInt()).isEqualTo(10);

        report(id, "0xs1", "2.5", "confirmed", 10, 10);
        JsonNode paid = status(id);
        assertThat(paid.get("state").asString()).isEqualTo("paid");
        assertThat(paid.get("terminal").asBoolean()).isTrue();
    }

    @Test
    void theStreamSendsTheStateThenEachChangeAndEndsWhenPaid() {
        String id = link(merchantWithKey(), "2.5").get("id").asString();
        Flux<ServerSentEvent<String>> events = subscribe(id).getResponseBody();

        StepVerifier.create(events.filter(event -> event.event() != null))
                .assertNext(event -> assertThat(state(event)).isEqualTo("awaiting_payment"))
                .then(() -> inBackground(() -> report(id, "0xe1", "2.5", "pending", 1, 3)))
                .assertNext(event -> {
                    assertThat(event.event()).isEqualTo("status");
                    assertThat(state(event)).isEqualTo("detected");
                    assertThat(json.readTree(event.data()).get("confirmations").asInt())
                            .isEqualTo(1);
                })
                .then(() -> inBackground(() -> report(id, "0xe1", "2.5", "pending", 2, 3)))
                .assertNext(event -> assertThat(
                                json.readTree(event.data()).get("confirmations").asInt())
                        .isEqualTo(2))
                .then(() -> inBackground(() -> report(id, "0xe1", "2.5", "confirmed", 3, 3)))
                .assertNext(event -> assertThat(state(event)).isEqualTo("paid"))
                .expectComplete()
                .verify(LIMIT);
    }

    @Test
    void anIdleStreamSendsHeartbeatComments() {
        String id = link(merchantWithKey(), "1").get("id").asString();
        StepVerifier.create(subscribe(id).getResponseBody())
                .assertNext(event -> assertThat(state(event)).isEqualTo("awaiting_payment"))
                .assertNext(event -> {
                    assertThat(event.comment()).isEqualTo("heartbeat");
                    assertThat(event.data()).isNull();
                })
                .thenCancel()
                .verify(LIMIT);
    }

    @Test
    void aStreamOfAFinishedLinkSendsItsStateAndEnds() {
        MerchantIdentity merchant = merchantWithKey();
        String id = link(merchant, "1").get("id").asString();
        delete(merchant, "/payment_links/" + id).expectStatus().isOk();
        StepVerifier.create(subscribe(id).getResponseBody())
                .assertNext(event -> assertThat(state(event)).isEqualTo("cancelled"))
                .expectComplete()
                .verify(LIMIT);
    }

    @Test
    void beyondTheCapANewStreamIsRefusedWithRetryAfter() {
        await("streams of earlier tests to close", () -> streams.open() == 0);
        String id = link(merchantWithKey(), "1").get("id").asString();
        List<Flux<ServerSentEvent<String>>> open = new ArrayList<>();
        for (int i = 0; i < streams.max(); i++) {
            open.add(subscribe(id).getResponseBody());
        }
        assertThat(streams.open()).isEqualTo(3);

        JsonNode refused = read(as(null, HttpMethod.GET, "/checkout/payment_link/events?payment_id=" + id)
                .accept(MediaType.TEXT_EVENT_STREAM)
                .exchange()
                .expectStatus()
                .isEqualTo(503)
                .expectHeader()
                .valueEquals("Retry-After", "10"));
        assertThat(refused.get("code").asString()).isEqualTo("too_many_streams");
        assertThat(status(id).get("state").asString())
                .as("the polling fallback still answers")
                .isEqualTo("awaiting_payment");

        // Each stream read to its first event and then dropped by the client frees its place.
        open.forEach(stream -> StepVerifier.create(stream.take(1))
                .expectNextCount(1)
                .expectComplete()
                .verify(LIMIT));
        await("dropped streams to close", () -> streams.open() == 0);
        StepVerifier.create(subscribe(id).getResponseBody().take(1))
                .expectNextCount(1)
                .expectComplete()
                .verify(LIMIT);
    }

    private FluxExchangeResult<ServerSentEvent<String>> subscribe(String id) {
        return as(null, HttpMethod.GET, "/checkout/payment_link/events?payment_id=" + id)
                .accept(MediaType.TEXT_EVENT_STREAM)
                .exchange()
                .expectStatus()
                .isOk()
                .expectHeader()
                .contentTypeCompatibleWith(MediaType.TEXT_EVENT_STREAM)
                .returnResult(EVENTS);
    }

    private String state(ServerSentEvent<String> event) {
        assertThat(event.event()).isEqualTo("status");
        return json.readTree(event.data()).get("state").asString();
    }

    /** Runs a blocking call off the thread that delivers events (which must never block). */
    private static void inBackground(Runnable call) {
        Mono.fromRunnable(call).subscribeOn(Schedulers.boundedElastic()).subscribe();
    }
}
