package dev.cryptopay.auth.internal;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.bouncycastle.crypto.digests.SHA256Digest;
import org.bouncycastle.crypto.macs.HMac;
import org.bouncycastle.crypto.params.KeyParameter;

/**
 * Short-lived HMAC token proving that the merchant identity headers on an internal request were set
 * by the gateway, so a service reachable inside the network cannot be fooled by a forged
 * {@code X-Merchant-Id}.
 *
 * <p>Format: {@code v1.<issuedAtEpochSeconds>.<base64url-no-padding HMAC-SHA256>}. The MAC covers
 * <pre>
 * "v1\n" + merchantId-or-empty + "\n" + mode-wire-name-or-empty + "\n" + METHOD + "\n" + path + "\n" + issuedAtEpochSeconds
 * </pre>
 * so a token is bound to one identity, method and path (without query string) and cannot be replayed
 * on another endpoint. Times are compared in whole seconds. Thread-safe.
 */
public final class InternalIdentityToken {

    /** Default maximum token age; a token exactly this old is still valid. */
    public static final Duration DEFAULT_MAX_AGE = Duration.ofSeconds(60);
    /** How far in the future a token may be dated, to absorb clock skew between hosts. */
    public static final Duration MAX_FUTURE_SKEW = Duration.ofSeconds(5);
    /** Minimum secret length: the HMAC-SHA256 output size. */
    public static final int MIN_SECRET_BYTES = 32;

    private static final String VERSION = "v1";
    private static final int MAC_BYTES = 32;
    private static final Pattern FORMAT = Pattern.compile("v1\\.(0|[1-9][0-9]{0,17})\\.([A-Za-z0-9_-]{43})");

    private final byte[] secret;

    /**
     * @param secret shared by the gateway and internal services; at least {@value #MIN_SECRET_BYTES} bytes
     * @throws IllegalArgumentException if the secret is shorter
     */
    public InternalIdentityToken(byte[] secret) {
        Objects.requireNonNull(secret, "secret");
        if (secret.length < MIN_SECRET_BYTES) {
            throw new IllegalArgumentException(
                    "Internal auth secret must be at least " + MIN_SECRET_BYTES + " bytes, got " + secret.length);
        }
        this.secret = secret.clone();
    }

    /** Uses the UTF-8 bytes of {@code secret} (e.g. from configuration) as the key. */
    public static InternalIdentityToken fromSecret(String secret) {
        Objects.requireNonNull(secret, "secret");
        return new InternalIdentityToken(secret.getBytes(StandardCharsets.UTF_8));
    }

    /**
     * Issues a token for one forwarded request.
     *
     * @param identity the merchant, or {@code null} for internal calls not made on behalf of a merchant
     * @param method   HTTP method of the forwarded request
     * @param path     request path without query string
     * @param issuedAt now; truncated to whole seconds
     */
    public String issue(MerchantIdentity identity, String method, String path, Instant issuedAt) {
        long issuedAtSeconds = issuedAt.getEpochSecond();
        if (issuedAtSeconds < 0) {
            throw new IllegalArgumentException("issuedAt must not be before 1970: " + issuedAt);
        }
        byte[] mac = mac(identity, method, path, issuedAtSeconds);
        return VERSION + "." + issuedAtSeconds + "."
                + Base64.getUrlEncoder().withoutPadding().encodeToString(mac);
    }

    /**
     * Checks a token against the identity, method and path the receiving service sees.
     *
     * @param token    the {@link InternalHeaders#INTERNAL_AUTH} header value
     * @param identity the identity from the merchant headers, or {@code null} if none were sent
     * @param path     request path without query string
     * @param maxAge   maximum age (inclusive), usually {@link #DEFAULT_MAX_AGE}
     */
    public InternalTokenOutcome verify(
            String token, MerchantIdentity identity, String method, String path, Instant now, Duration maxAge) {
        Objects.requireNonNull(now, "now");
        Objects.requireNonNull(maxAge, "maxAge");
        if (token == null || token.isBlank()) {
            return InternalTokenOutcome.MISSING;
        }
        Matcher matcher = FORMAT.matcher(token);
        if (!matcher.matches()) {
            return InternalTokenOutcome.MALFORMED;
        }
        long issuedAtSeconds = Long.parseLong(matcher.group(1));
        byte[] presentedMac;
        try {
            presentedMac = Base64.getUrlDecoder().decode(matcher.group(2));
        } catch (IllegalArgumentException e) {
            return InternalTokenOutcome.MALFORMED;
        }
        if (presentedMac.length != MAC_BYTES) {
            return InternalTokenOutcome.MALFORMED;
        }
        long ageSeconds = now.getEpochSecond() - issuedAtSeconds;
        if (ageSeconds > maxAge.getSeconds()) {
            return InternalTokenOutcome.EXPIRED;
        }
        if (-ageSeconds > MAX_FUTURE_SKEW.getSeconds()) {
            return InternalTokenOutcome.NOT_YET_VALID;
        }
        byte[] expectedMac = mac(identity, method, path, issuedAtSeconds);
        return MessageDigest.isEqual(expectedMac, presentedMac)
                ? InternalTokenOutcome.VALID
                : InternalTokenOutcome.BAD_MAC;
    }

    /** {@link #verify(String, MerchantIdentity, String, String, Instant, Duration)} with {@link #DEFAULT_MAX_AGE}. */
    public InternalTokenOutcome verify(
            String token, MerchantIdentity identity, String method, String path, Instant now) {
        return verify(token, identity, method, path, now, DEFAULT_MAX_AGE);
    }

    private byte[] mac(MerchantIdentity identity, String method, String path, long issuedAtSeconds) {
        Objects.requireNonNull(method, "method");
        Objects.requireNonNull(path, "path");
        String merchantId = identity == null ? "" : identity.merchantId().toString();
        String mode = identity == null ? "" : identity.mode().wireName();
        String input = VERSION + "\n" + merchantId + "\n" + mode + "\n" + method + "\n" + path + "\n" + issuedAtSeconds;
        byte[] data = input.getBytes(StandardCharsets.UTF_8);
        HMac hmac = new HMac(new SHA256Digest());
        hmac.init(new KeyParameter(secret));
        hmac.update(data, 0, data.length);
        byte[] out = new byte[hmac.getMacSize()];
        hmac.doFinal(out, 0);
        return out;
    }
}
