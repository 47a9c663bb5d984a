package dev.cryptopay.gateway.ratelimit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cryptopay.gateway.support.GatewayTestBase;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.web.reactive.function.client.WebClient;
import reactor.core.Disposable;

/**
 * One client address cannot hold every status stream: at most 6 open per address and 30 per link on an instance (the
 * echo upstream keeps each stream open until the client goes). A closed stream gives its places back.
 */
class StreamLimitTest extends GatewayTestBase {

    private final List<Disposable> streams = new ArrayList<>();

    @AfterEach
    void closeStreams() {
        streams.forEach(Disposable::dispose);
    }

    @Test
    void oneAddressHoldsSixStreamsAtMost() throws InterruptedException {
        String address = "203.0.113.70";
        for (int i = 0; i < 6; i++) {
            streams.add(open("/checkout/payment_link/events?payment_id=cap-" + i, address));
        }
        Refusal refusal = refusal("/checkout/subscribe/events?subscriber_id=other", address);
        assertThat(refusal.status()).isEqualTo(429);
        assertThat(refusal.retryAfter()).isEqualTo("10");
        assertThat(refusal.body()).contains("\"code\":\"too_many_streams\"").contains("this address has 6 open");
        // Another address is not held back by this one's streams.
        streams.add(open("/checkout/subscribe/events?subscriber_id=other", "203.0.113.71"));

        // A stream that ends gives its place back.
        streams.remove(0).dispose();
        awaitAdmitted("/checkout/payment_link/events?payment_id=cap-again", address);
    }

    @Test
    void oneLinkHoldsThirtyStreamsAtMostWhateverTheAddresses() throws InterruptedException {
        String link = "/checkout/payment_link/events?payment_id=crowded";
        for (int i = 0; i < 30; i++) {
            streams.add(open(link, "198.51.100." + (i / 5 + 1)));
        }
        Refusal refusal = refusal(link, "198.51.100.200");
        assertThat(refusal.status()).isEqualTo(429);
        assertThat(refusal.body()).contains("\"code\":\"too_many_streams\"").contains("this page has 30 open");
        // Other links are served meanwhile, from that very address too.
        streams.add(open("/checkout/payment_link/events?payment_id=quiet", "198.51.100.200"));
    }

    @Test
    void otherCheckoutRoutesAreNotCounted() {
        for (int i = 0; i < 8; i++) {
            client.get()
                    .uri(baseUrl() + "/checkout/payment_link/status?payment_id=s" + i)
                    .header("X-Forwarded-For", "203.0.113.72")
                    .exchange()
                    .expectStatus()
                    .isOk();
        }
    }

    /** An open stream: its first event arrived, and it stays open until disposed. */
    private Disposable open(String uri, String address) throws InterruptedException {
        CountDownLatch first = new CountDownLatch(1);
        Disposable stream = WebClient.create(baseUrl())
                .get()
                .uri(uri)
                .header("X-Forwarded-For", address)
                .accept(MediaType.TEXT_EVENT_STREAM)
                .retrieve()
                .bodyToFlux(String.class)
                .subscribe(event -> first.countDown());
        assertThat(first.await(10, TimeUnit.SECONDS))
                .as("stream " + uri + " from " + address)
                .isTrue();
        return stream;
    }

    private void awaitAdmitted(String uri, String address) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (refusal(uri, address).status() == 429) {
            assertThat(System.nanoTime()).as("the place given back").isLessThan(deadline);
            Thread.sleep(50);
        }
    }

    private record Refusal(int status, String retryAfter, String body) {}

    /** The answer to a stream request; an admitted stream is closed after its first event. */
    private Refusal refusal(String uri, String address) {
        return WebClient.create(baseUrl())
                .get()
                .uri(uri)
                .header("X-Forwarded-For", address)
                .exchangeToFlux(response -> response.statusCode().value() == 429
                        ? response.bodyToMono(String.class)
                                .map(body -> new Refusal(
                                        429,
                                        response.headers().asHttpHeaders().getFirst(HttpHeaders.RETRY_AFTER),
                                        body))
                                .flux()
                        : response.bodyToFlux(String.class)
                                .take(1)
                                .map(event -> new Refusal(response.statusCode().value(), null, event)))
                .next()
                .block(Duration.ofSeconds(10));
    }
}
