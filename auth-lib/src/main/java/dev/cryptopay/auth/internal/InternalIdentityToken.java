package dev.cryptopay.auth.internal;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Objects;
import org.bouncycastle.crypto.digests.SHA256Digest;
import org.bouncycastle.crypto.macs.HMac;
import org.bouncycastle.crypto.params.KeyParameter;

/**
 * One internal caller's key: issues the short-lived HMAC token ({@code X-Internal-Auth}) that proves to a service who
 * sent a request and that nothing of it was changed on the way. {@link InternalTokenVerifier} checks it.
 *
 * <p>Format: {@code v2.<caller>.<issuedAtEpochSeconds>.<base64url-no-padding HMAC-SHA256>}. The MAC, under the
 * caller's own secret, covers
 * <pre>
 * "v2" \n caller \n merchantId-or-empty \n mode-or-empty \n METHOD \n rawPath \n rawQuery-or-empty \n
 *   hex(SHA-256(body)) \n issuedAtEpochSeconds
 * </pre>
 * (joined by {@code "\n"}, no trailing line break), so a token is bound to one caller, identity, method, path,
 * query string and body, and lives {@link #DEFAULT_MAX_AGE}. Times are whole seconds. Thread-safe.
 */
public final class InternalIdentityToken {

    /** Default maximum token age (clock skew included); a token exactly this old is still valid. */
    public static final Duration DEFAULT_MAX_AGE = Duration.ofSeconds(10);
    /** How far in the future a token may be dated, to absorb clock skew between hosts. */
    public static final Duration MAX_FUTURE_SKEW = Duration.ofSeconds(2);
    /** Minimum secret length: the HMAC-SHA256 output size. */
    public static final int MIN_SECRET_BYTES = 32;

    static final String VERSION = "v2";

    private final String caller;
    private final byte[] secret;

    /**
     * @param caller the caller id ({@link InternalCallers}), carried in the token
     * @param secret this caller's own secret, at least {@value #MIN_SECRET_BYTES} bytes
     * @throws IllegalArgumentException if the caller id is malformed or the secret is shorter
     */
    public InternalIdentityToken(String caller, byte[] secret) {
        Objects.requireNonNull(secret, "secret");
        this.caller = InternalCallers.requireWellFormed(caller);
        if (secret.length < MIN_SECRET_BYTES) {
            throw new IllegalArgumentException("Internal auth secret of caller " + caller + " must be at least "
                    + MIN_SECRET_BYTES + " bytes, got " + secret.length);
        }
        this.secret = secret.clone();
    }

    /** Uses the UTF-8 bytes of {@code secret} (e.g. from configuration) as the key. */
    public static InternalIdentityToken fromSecret(String caller, String secret) {
        Objects.requireNonNull(secret, "secret");
        return new InternalIdentityToken(caller, secret.getBytes(StandardCharsets.UTF_8));
    }

    /** The caller id this key signs as. */
    public String caller() {
        return caller;
    }

    /**
     * Issues a token for one request.
     *
     * @param identity the merchant, or {@code null} for a call not made on behalf of a merchant
     * @param request  the request exactly as the service will receive it
     * @param issuedAt now; truncated to whole seconds
     */
    public String issue(MerchantIdentity identity, InternalRequest request, Instant issuedAt) {
        long issuedAtSeconds = issuedAt.getEpochSecond();
        if (issuedAtSeconds < 0) {
            throw new IllegalArgumentException("issuedAt must not be before 1970: " + issuedAt);
        }
        return VERSION + "." + caller + "." + issuedAtSeconds + "."
                + Base64.getUrlEncoder().withoutPadding().encodeToString(mac(identity, request, issuedAtSeconds));
    }

    byte[] mac(MerchantIdentity identity, InternalRequest request, long issuedAtSeconds) {
        Objects.requireNonNull(request, "request");
        String input = String.join(
                "\n",
                VERSION,
                caller,
                identity == null ? "" : identity.merchantId().toString(),
                identity == null ? "" : identity.mode().wireName(),
                request.method(),
                request.rawPath(),
                request.rawQuery(),
                request.bodySha256(),
                Long.toString(issuedAtSeconds));
        byte[] data = input.getBytes(StandardCharsets.UTF_8);
        HMac hmac = new HMac(new SHA256Digest());
        hmac.init(new KeyParameter(secret));
        hmac.update(data, 0, data.length);
        byte[] out = new byte[hmac.getMacSize()];
        hmac.doFinal(out, 0);
        return out;
    }

    /** Never shows the secret. */
    @Override
    public String toString() {
        return "InternalIdentityToken[caller=" + caller + ", secret=<redacted>]";
    }
}
