import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.time.Clock;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Verifies a webhook delivery from the payments platform on the receiving side. Plain JDK 17, no dependencies: copy
 * this file into your project (and give it your package).
 *
 * <p>Checks, in order: the three headers are present; {@code X-Service-Timestamp} is within the tolerance of your
 * clock; {@code X-Service-Timestamped-Signature} is the lowercase hex HMAC-SHA256, keyed with the UTF-8 bytes of your
 * endpoint secret ({@code whsec_...}), of the UTF-8 bytes of {@code timestamp + "."} followed by the exact body bytes,
 * compared in constant time; and the {@code X-Service-Event-Id} has not been accepted already within the tolerance
 * window. Only then is the event id remembered.
 *
 * <pre>{@code
 * WebhookVerifier verifier = new WebhookVerifier(System.getenv("WEBHOOK_SECRET"));
 * try {
 *     verifier.verify(headers, rawBody);      // the raw bytes, before any JSON parsing
 * } catch (WebhookVerifier.Rejected e) {
 *     return 400;                             // e.getMessage() says why; do not process the event
 * }
 * try {
 *     process(rawBody);
 *     return 200;
 * } catch (RuntimeException e) {
 *     verifier.forget(headers.get("X-Service-Event-Id"));  // so the platform's retry is accepted
 *     return 500;
 * }
 * }</pre>
 *
 * <p>The remembered ids live in this instance's memory; with several receiver instances, keep them in a shared store
 * (a database table with a unique key on the event id, or Redis {@code SET NX EX}) instead.
 */
public final class WebhookVerifier {

    public static final String EVENT_ID = "X-Service-Event-Id";
    public static final String TIMESTAMP = "X-Service-Timestamp";
    public static final String TIMESTAMPED_SIGNATURE = "X-Service-Timestamped-Signature";
    public static final Duration DEFAULT_TOLERANCE = Duration.ofMinutes(5);

    /** Why a delivery was refused. */
    public static final class Rejected extends Exception {
        private static final long serialVersionUID = 1L;

        public Rejected(String reason) {
            super(reason);
        }
    }

    private final byte[] key;
    private final long toleranceSeconds;
    private final Clock clock;
    /** Accepted event ids, with the epoch second after which their timestamp is too old to be replayed anyway. */
    private final Map<String, Long> accepted = new ConcurrentHashMap<>();

    public WebhookVerifier(String secret) {
        this(secret, DEFAULT_TOLERANCE, Clock.systemUTC());
    }

    public WebhookVerifier(String secret, Duration tolerance, Clock clock) {
        if (secret == null || secret.isEmpty()) {
            throw new IllegalArgumentException("the endpoint secret is required");
        }
        this.key = secret.getBytes(StandardCharsets.UTF_8);
        this.toleranceSeconds = tolerance.getSeconds();
        this.clock = clock;
    }

    /**
     * Accepts a delivery or throws {@link Rejected}. Header names are matched case-insensitively.
     *
     * @return the event id, now remembered as accepted
     */
    public String verify(Map<String, String> headers, byte[] body) throws Rejected {
        Map<String, String> named = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        named.putAll(headers);
        String eventId = required(named, EVENT_ID);
        String timestampText = required(named, TIMESTAMP);
        String signature = required(named, TIMESTAMPED_SIGNATURE);

        if (!timestampText.matches("[0-9]{1,12}")) {
            throw new Rejected("malformed " + TIMESTAMP);
        }
        long timestamp = Long.parseLong(timestampText);
        long now = clock.instant().getEpochSecond();
        if (Math.abs(now - timestamp) > toleranceSeconds) {
            throw new Rejected("timestamp outside the tolerance of " + toleranceSeconds + " s");
        }

        byte[] presented;
        try {
            presented = HexFormat.of().parseHex(signature);
        } catch (IllegalArgumentException e) {
            throw new Rejected("malformed " + TIMESTAMPED_SIGNATURE);
        }
        byte[] expected = hmacSha256(signedBytes(timestampText, body));
        if (!MessageDigest.isEqual(expected, presented)) { // constant time
            throw new Rejected("signature does not match");
        }

        accepted.values().removeIf(expiry -> expiry < now);
        if (accepted.putIfAbsent(eventId, timestamp + toleranceSeconds) != null) {
            throw new Rejected("event " + eventId + " was already accepted (replay)");
        }
        return eventId;
    }

    /** Forgets an accepted event id, for when processing it failed and the platform will retry. */
    public void forget(String eventId) {
        if (eventId != null) {
            accepted.remove(eventId);
        }
    }

    /** UTF-8 of {@code timestamp + "."}, then the body bytes exactly as received. */
    private static byte[] signedBytes(String timestamp, byte[] body) {
        byte[] prefix = (timestamp + ".").getBytes(StandardCharsets.UTF_8);
        byte[] message = new byte[prefix.length + body.length];
        System.arraycopy(prefix, 0, message, 0, prefix.length);
        System.arraycopy(body, 0, message, prefix.length, body.length);
        return message;
    }

    private byte[] hmacSha256(byte[] message) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            return mac.doFinal(message);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is part of every JRE", e);
        }
    }

    private static String required(Map<String, String> headers, String name) throws Rejected {
        String value = headers.get(name);
        if (value == null || value.isBlank()) {
            throw new Rejected("missing " + name);
        }
        return value.trim();
    }
}
