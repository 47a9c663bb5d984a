package dev.cryptopay.client.webhook;

import dev.cryptopay.auth.webhook.WebhookSignature;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/**
 * Verifies a webhook delivery on the raw body, before it is parsed:
 *
 * <pre>{@code
 * WebhookVerifier verifier = new WebhookVerifier(System.getenv("WEBHOOK_SECRET"));   // whsec_…
 * String eventId = verifier.verify(request.headers(), rawBodyBytes);   // throws WebhookVerificationException
 * }</pre>
 *
 * <p>{@link #verify} checks the timestamped signature ({@code X-Service-Timestamped-Signature} over
 * {@code X-Service-Timestamp + "." + body}), that the timestamp is within the tolerance of this clock, and that the
 * event id ({@code X-Service-Event-Id}) was not accepted before within that window; {@link #verifySignature} checks
 * only {@code X-Service-Signature} over the body, for receivers that cannot keep ids. Signatures are compared in
 * constant time. If processing an accepted event fails, {@link #forget} its id so the platform's retry is accepted.
 *
 * <p>Accepted ids live in this instance's memory; with several receiver instances, pass a shared {@link SeenEvents}
 * (a table with a unique key on the event id, or Redis {@code SET NX EX}).
 */
public final class WebhookVerifier {

    public static final String SIGNATURE = "X-Service-Signature";
    public static final String TIMESTAMP = "X-Service-Timestamp";
    public static final String TIMESTAMPED_SIGNATURE = "X-Service-Timestamped-Signature";
    public static final String EVENT_ID = "X-Service-Event-Id";
    public static final Duration DEFAULT_TOLERANCE = Duration.ofMinutes(5);

    private static final Pattern DIGITS = Pattern.compile("[0-9]{1,12}");

    /** Where accepted event ids are remembered. */
    public interface SeenEvents {
        /** Remembers {@code eventId} until {@code untilEpochSecond}; false when it is remembered already. */
        boolean remember(String eventId, long untilEpochSecond);

        /** Forgets {@code eventId}, so it is accepted again. */
        void forget(String eventId);
    }

    private final String secret;
    private final Duration tolerance;
    private final Clock clock;
    private final SeenEvents seen;

    /** A verifier with the default tolerance of 5 minutes, remembering ids in memory. */
    public WebhookVerifier(String secret) {
        this(secret, DEFAULT_TOLERANCE, Clock.systemUTC(), new InMemorySeenEvents(Clock.systemUTC()));
    }

    public WebhookVerifier(String secret, Duration tolerance, Clock clock, SeenEvents seen) {
        if (secret == null || secret.isBlank()) {
            throw new IllegalArgumentException("the endpoint secret (whsec_…) is required");
        }
        this.secret = secret;
        this.tolerance = Objects.requireNonNull(tolerance, "tolerance");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.seen = Objects.requireNonNull(seen, "seen");
    }

    /**
     * Accepts a delivery or throws. {@code headers} maps names (any case) to a value or a list of values, as web
     * frameworks give them; {@code body} is the exact bytes received.
     *
     * @return the event id, now remembered as accepted
     */
    public String verify(Map<String, ?> headers, byte[] body) throws WebhookVerificationException {
        Objects.requireNonNull(body, "body");
        String eventId = required(headers, EVENT_ID);
        String timestamp = required(headers, TIMESTAMP);
        String signature = required(headers, TIMESTAMPED_SIGNATURE);
        if (!DIGITS.matcher(timestamp).matches()) {
            throw new WebhookVerificationException("malformed " + TIMESTAMP);
        }
        long epochSeconds = Long.parseLong(timestamp);
        if (!WebhookSignature.verifyTimestamped(secret, epochSeconds, body, signature, clock.instant(), tolerance)) {
            boolean fresh = Math.abs(clock.instant().getEpochSecond() - epochSeconds) <= tolerance.getSeconds();
            throw new WebhookVerificationException(
                    fresh ? "wrong " + TIMESTAMPED_SIGNATURE : TIMESTAMP + " outside the tolerance of " + tolerance);
        }
        if (!seen.remember(eventId, epochSeconds + tolerance.getSeconds())) {
            throw new WebhookVerificationException("event " + eventId + " was accepted already (a replay)");
        }
        return eventId;
    }

    /** Accepts a delivery whose {@code X-Service-Signature} is right, or throws. No replay protection. */
    public void verifySignature(Map<String, ?> headers, byte[] body) throws WebhookVerificationException {
        Objects.requireNonNull(body, "body");
        if (!WebhookSignature.verify(secret, body, required(headers, SIGNATURE))) {
            throw new WebhookVerificationException("wrong " + SIGNATURE);
        }
    }

    /** Forgets an accepted event id, after its processing failed, so the platform's next attempt is accepted. */
    public void forget(String eventId) {
        if (eventId != null) {
            seen.forget(eventId);
        }
    }

    private static String required(Map<String, ?> headers, String name) throws WebhookVerificationException {
        String lower = name.toLowerCase(Locale.ROOT);
        for (Map.Entry<String, ?> header : headers.entrySet()) {
            if (header.getKey() != null
                    && header.getKey().toLowerCase(Locale.ROOT).equals(lower)) {
                String value = first(header.getValue());
                if (value != null && !value.isBlank()) {
                    return value.strip();
                }
            }
        }
        throw new WebhookVerificationException("missing " + name);
    }

    private static String first(Object value) {
        if (value instanceof List<?> list) {
            return list.isEmpty() ? null : first(list.get(0));
        }
        return value instanceof String text ? text : null;
    }

    /** Accepted ids in memory, each dropped once its timestamp is too old to pass the tolerance anyway. */
    public static final class InMemorySeenEvents implements SeenEvents {
        private final Map<String, Long> accepted = new ConcurrentHashMap<>();
        private final Clock clock;

        public InMemorySeenEvents(Clock clock) {
            this.clock = clock;
        }

        @Override
        public boolean remember(String eventId, long untilEpochSecond) {
            long now = clock.instant().getEpochSecond();
            accepted.values().removeIf(until -> until < now);
            return accepted.putIfAbsent(eventId, untilEpochSecond) == null;
        }

        @Override
        public void forget(String eventId) {
            accepted.remove(eventId);
        }
    }
}
