package dev.cryptopay.webhooks.delivery;

import dev.cryptopay.auth.webhook.WebhookSignature;
import dev.cryptopay.service.text.Storable;
import dev.cryptopay.webhooks.address.AddressPolicy;
import dev.cryptopay.webhooks.config.WebhookProperties;
import io.netty.channel.ChannelOption;
import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.TimeoutException;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.client.reactive.ReactorClientHttpConnector;
import org.springframework.stereotype.Component;
import org.springframework.web.reactive.function.client.ClientResponse;
import org.springframework.web.reactive.function.client.WebClient;
import reactor.core.publisher.Mono;
import reactor.netty.http.client.HttpClient;

/**
 * Sends one signed attempt. Success is any 2xx; redirects are not followed and count as failures, like every other
 * status, timeout or connection error.
 *
 * <p>Headers: {@code X-Service-Signature} (lowercase hex HMAC-SHA256 of the exact body under the endpoint secret),
 * {@code X-Service-Event-Id}, {@code X-Service-Timestamp} (epoch seconds) and {@code X-Service-Timestamped-Signature}
 * (HMAC over {@code timestamp + "." + body}) so receivers can refuse replayed deliveries.
 */
@Component
public class WebhookSender {

    public static final String SIGNATURE = "X-Service-Signature";
    public static final String EVENT_ID = "X-Service-Event-Id";
    public static final String TIMESTAMP = "X-Service-Timestamp";
    public static final String TIMESTAMPED_SIGNATURE = "X-Service-Timestamped-Signature";
    private static final int EXCERPT_BYTES = 1024;

    private final WebClient client;
    private final AddressPolicy policy;
    private final Duration timeout;
    private final Clock clock;

    public WebhookSender(WebhookProperties properties, AddressPolicy policy, Clock clock) {
        this.policy = policy;
        this.timeout = properties.delivery().timeout();
        this.clock = clock;
        HttpClient http = HttpClient.create()
                .resolver(new PublicAddressResolverGroup(policy))
                .followRedirect(false)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) Math.min(timeout.toMillis(), 10_000))
                .responseTimeout(timeout);
        this.client = WebClient.builder()
                .clientConnector(new ReactorClientHttpConnector(http))
                .build();
    }

    public Mono<AttemptResult> send(String url, String eventId, byte[] body, String secret) {
        long timestamp = clock.instant().getEpochSecond();
        long started = System.nanoTime();
        // Host names are checked by the resolver after DNS; an IP literal is never resolved, so check it here.
        String host = URI.create(url).getHost();
        if (host == null || !policy.isAllowedLiteral(host)) {
            return Mono.just(new AttemptResult(
                    null,
                    "refused_address",
                    new RefusedAddressException(String.valueOf(host)).getMessage(),
                    elapsed(started),
                    null,
                    null));
        }
        return client.post()
                .uri(url)
                .contentType(MediaType.APPLICATION_JSON)
                .header(HttpHeaders.USER_AGENT, "cryptopay-webhooks/1")
                .header(SIGNATURE, WebhookSignature.sign(secret, body))
                .header(EVENT_ID, eventId)
                .header(TIMESTAMP, Long.toString(timestamp))
                .header(TIMESTAMPED_SIGNATURE, WebhookSignature.signTimestamped(secret, timestamp, body))
                .bodyValue(body)
                .exchangeToMono(response -> excerpt(response).map(text -> fromResponse(response, text, started)))
                .timeout(timeout)
                .onErrorResume(failure -> Mono.just(fromFailure(failure, started)));
    }

    private static AttemptResult fromResponse(ClientResponse response, String excerpt, long started) {
        int status = response.statusCode().value();
        String outcome = response.statusCode().is2xxSuccessful()
                ? "success"
                : response.statusCode().is3xxRedirection() ? "redirect" : "http_error";
        String error = outcome.equals("success")
                ? null
                : outcome.equals("redirect") ? "Redirect (" + status + ") not followed" : "HTTP " + status;
        return new AttemptResult(status, outcome, error, elapsed(started), retryAfter(response), excerpt);
    }

    private static AttemptResult fromFailure(Throwable failure, long started) {
        Throwable root = failure;
        while (root.getCause() != null && root.getCause() != root) {
            if (root instanceof RefusedAddressException) {
                break;
            }
            root = root.getCause();
        }
        String outcome;
        if (root instanceof RefusedAddressException || failure.toString().contains("Refused to deliver")) {
            outcome = "refused_address";
        } else if (failure instanceof TimeoutException
                || root instanceof TimeoutException
                || failure.getClass().getSimpleName().contains("Timeout")
                || root.getClass().getSimpleName().contains("Timeout")) {
            outcome = "timeout";
        } else {
            outcome = "connection_error";
        }
        String message =
                root.getMessage() != null ? root.getMessage() : root.getClass().getSimpleName();
        return new AttemptResult(null, outcome, Storable.withoutNul(message), elapsed(started), null, null);
    }

    /** Reads at most the first kilobyte of the response for the attempt log; the rest is drained and dropped. */
    private static Mono<String> excerpt(ClientResponse response) {
        return response.bodyToFlux(DataBuffer.class)
                .reduce(new ByteArrayOutputStream(), (out, buffer) -> {
                    int room = EXCERPT_BYTES - out.size();
                    if (room > 0) {
                        byte[] bytes = new byte[Math.min(room, buffer.readableByteCount())];
                        buffer.read(bytes);
                        out.write(bytes, 0, bytes.length);
                    }
                    DataBufferUtils.release(buffer);
                    return out;
                })
                // Whatever a receiver answers is kept as text: without NUL, which PostgreSQL text cannot hold.
                .map(out -> Storable.withoutNul(out.toString(StandardCharsets.UTF_8)))
                .defaultIfEmpty("");
    }

    private static Duration retryAfter(ClientResponse response) {
        String value = response.headers().asHttpHeaders().getFirst(HttpHeaders.RETRY_AFTER);
        if (value == null) {
            return null;
        }
        try {
            long seconds = Long.parseLong(value.trim());
            return seconds >= 0 ? Duration.ofSeconds(seconds) : null;
        } catch (NumberFormatException e) {
            return null; // HTTP-date form is rare for webhooks; the schedule applies
        }
    }

    private static long elapsed(long started) {
        return Duration.ofNanos(System.nanoTime() - started).toMillis();
    }
}
