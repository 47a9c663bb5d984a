package dev.cryptopay.auth.webhook;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.Objects;
import org.bouncycastle.crypto.digests.SHA256Digest;
import org.bouncycastle.crypto.macs.HMac;
import org.bouncycastle.crypto.params.KeyParameter;

/**
 * Signs and verifies webhook bodies with lowercase hex HMAC-SHA256, keyed with the UTF-8 bytes of
 * the whole {@link WebhookSecret} string.
 *
 * <p>Two variants: over the body alone, and "timestamped" over {@code "<epochSeconds>." + body} so
 * receivers can reject replays. Verification compares decoded bytes in constant time, accepts hex
 * in either case and returns {@code false} (never throws) for malformed hex.
 */
public final class WebhookSignature {

    private static final HexFormat HEX = HexFormat.of();

    private WebhookSignature() {}

    /** Lowercase hex HMAC-SHA256 of {@code body} keyed by the secret string. */
    public static String sign(String secret, byte[] body) {
        return HEX.formatHex(hmacSha256(WebhookSecret.hmacKey(secret), nonNull(body)));
    }

    /** Lowercase hex HMAC-SHA256 of UTF-8 {@code epochSeconds + "."} followed by {@code body}. */
    public static String signTimestamped(String secret, long epochSeconds, byte[] body) {
        return HEX.formatHex(hmacSha256(WebhookSecret.hmacKey(secret), timestamped(epochSeconds, body)));
    }

    /** Constant-time check of a {@link #sign} value. */
    public static boolean verify(String secret, byte[] body, String hexSignature) {
        return matches(hmacSha256(WebhookSecret.hmacKey(secret), nonNull(body)), hexSignature);
    }

    /**
     * Constant-time check of a {@link #signTimestamped} value that also requires {@code epochSeconds}
     * to be within {@code tolerance} of {@code now} in either direction (inclusive).
     */
    public static boolean verifyTimestamped(
            String secret, long epochSeconds, byte[] body, String hexSignature, Instant now, Duration tolerance) {
        Objects.requireNonNull(now, "now");
        Objects.requireNonNull(tolerance, "tolerance");
        long skewSeconds = Math.abs(now.getEpochSecond() - epochSeconds);
        if (epochSeconds < 0 || skewSeconds < 0 || skewSeconds > tolerance.getSeconds()) {
            return false;
        }
        return matches(hmacSha256(WebhookSecret.hmacKey(secret), timestamped(epochSeconds, body)), hexSignature);
    }

    /** Lowercase hex HMAC-SHA256; public so the primitive can be checked against RFC 4231. */
    public static String hmacSha256Hex(byte[] key, byte[] data) {
        return HEX.formatHex(hmacSha256(key, data));
    }

    private static byte[] hmacSha256(byte[] key, byte[] data) {
        HMac mac = new HMac(new SHA256Digest());
        mac.init(new KeyParameter(key));
        mac.update(data, 0, data.length);
        byte[] out = new byte[mac.getMacSize()];
        mac.doFinal(out, 0);
        return out;
    }

    private static boolean matches(byte[] expected, String hexSignature) {
        if (hexSignature == null) {
            return false;
        }
        byte[] presented;
        try {
            presented = HEX.parseHex(hexSignature);
        } catch (IllegalArgumentException e) {
            return false;
        }
        return MessageDigest.isEqual(expected, presented);
    }

    private static byte[] timestamped(long epochSeconds, byte[] body) {
        byte[] prefix = (epochSeconds + ".").getBytes(StandardCharsets.UTF_8);
        byte[] payload = nonNull(body);
        byte[] message = new byte[prefix.length + payload.length];
        System.arraycopy(prefix, 0, message, 0, prefix.length);
        System.arraycopy(payload, 0, message, prefix.length, payload.length);
        return message;
    }

    private static byte[] nonNull(byte[] body) {
        return body == null ? new byte[0] : body;
    }
}
