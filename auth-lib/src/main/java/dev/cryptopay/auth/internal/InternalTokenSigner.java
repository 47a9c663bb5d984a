package dev.cryptopay.auth.internal;

import dev.cryptopay.auth.keys.KeyAlgorithm;
import dev.cryptopay.auth.keys.SigningKey;
import dev.cryptopay.auth.keys.VerificationKey;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Objects;

/**
 * One internal caller's private key: issues the short-lived token ({@code X-Internal-Auth}) that proves to one
 * receiving service who sent a request and that nothing of it was changed on the way. Only the caller holds its
 * private key; receivers hold its public key ({@link InternalTokenVerifier}), so a receiver can check the caller's
 * tokens but never make one.
 *
 * <p>Format: {@code v3.<caller>.<audience>.<issuedAtEpochSeconds>.<base64url-no-padding Ed25519 signature>}. The
 * signature covers
 * <pre>
 * "v3" \n caller \n audience \n merchantId-or-empty \n mode-or-empty \n credential-or-empty \n METHOD \n rawPath \n
 *   rawQuery-or-empty \n hex(SHA-256(body)) \n issuedAtEpochSeconds
 * </pre>
 * (joined by {@code "\n"}, no trailing line break), so a token is bound to one caller, one receiving service (the
 * audience), the identity it acts for and how the gateway established it, the method, path, query string and body,
 * and lives {@link #DEFAULT_MAX_AGE}. Times are whole seconds. Thread-safe.
 */
public final class InternalTokenSigner {

    /** Default maximum token age (clock skew included); a token exactly this old is still valid. */
    public static final Duration DEFAULT_MAX_AGE = Duration.ofSeconds(10);
    /** How far in the future a token may be dated, to absorb clock skew between hosts. */
    public static final Duration MAX_FUTURE_SKEW = Duration.ofSeconds(2);

    static final String VERSION = "v3";

    private final String caller;
    private final SigningKey key;

    /**
     * @param caller the caller id ({@link InternalCallers}), carried in the token
     * @param key    this caller's own Ed25519 private key
     * @throws IllegalArgumentException if the caller id is malformed or the key is not Ed25519
     */
    public InternalTokenSigner(String caller, SigningKey key) {
        Objects.requireNonNull(key, "key");
        this.caller = InternalCallers.requireWellFormed(caller);
        if (key.algorithm() != KeyAlgorithm.ED25519) {
            throw new IllegalArgumentException("The internal key of caller " + caller + " must be Ed25519");
        }
        this.key = key;
    }

    /**
     * Reads the private key from configuration text: {@code Ed25519:<Base64 PKCS#8 DER>}, bare Base64 PKCS#8 DER or
     * PKCS#8 PEM (see {@link SigningKey#parse}).
     *
     * @throws IllegalArgumentException if it is not an Ed25519 private key; the message never shows key material
     */
    public static InternalTokenSigner parse(String caller, String privateKey) {
        return new InternalTokenSigner(caller, SigningKey.parse(privateKey));
    }

    /** The caller id this key signs as. */
    public String caller() {
        return caller;
    }

    /** The public key receivers configure for this caller. */
    public VerificationKey verificationKey() {
        return key.verificationKey();
    }

    /** Issues a token for a call made on nobody's behalf (a report, a question). */
    public String issue(String audience, InternalRequest request, Instant issuedAt) {
        return issue(audience, null, null, request, issuedAt);
    }

    /**
     * Issues a token for one request.
     *
     * @param audience   the receiving service ({@link InternalCallers#isWellFormed well formed} id, e.g.
     *                   {@link InternalCallers#PAYMENT_LINKS_SERVICE})
     * @param identity   the merchant, or {@code null} for a call not made on behalf of a merchant
     * @param credential how the merchant was established; required with an identity, {@code null} without one
     * @param request    the request exactly as the service will receive it
     * @param issuedAt   now; truncated to whole seconds
     */
    public String issue(
            String audience,
            MerchantIdentity identity,
            MerchantCredential credential,
            InternalRequest request,
            Instant issuedAt) {
        InternalCallers.requireWellFormed(audience);
        if ((identity == null) != (credential == null)) {
            throw new IllegalArgumentException("A merchant identity and its credential go together");
        }
        long issuedAtSeconds = issuedAt.getEpochSecond();
        if (issuedAtSeconds < 0) {
            throw new IllegalArgumentException("issuedAt must not be before 1970: " + issuedAt);
        }
        byte[] signature = key.sign(signedBytes(caller, audience, identity, credential, request, issuedAtSeconds));
        return VERSION + "." + caller + "." + audience + "." + issuedAtSeconds + "."
                + Base64.getUrlEncoder().withoutPadding().encodeToString(signature);
    }

    /** What the signature covers (see the class documentation). */
    static byte[] signedBytes(
            String caller,
            String audience,
            MerchantIdentity identity,
            MerchantCredential credential,
            InternalRequest request,
            long issuedAtSeconds) {
        Objects.requireNonNull(request, "request");
        String input = String.join(
                "\n",
                VERSION,
                caller,
                audience,
                identity == null ? "" : identity.merchantId().toString(),
                identity == null ? "" : identity.mode().wireName(),
                credential == null ? "" : credential.wireName(),
                request.method(),
                request.rawPath(),
                request.rawQuery(),
                request.bodySha256(),
                Long.toString(issuedAtSeconds));
        return input.getBytes(StandardCharsets.UTF_8);
    }

    /** Never shows the key. */
    @Override
    public String toString() {
        return "InternalTokenSigner[caller=" + caller + ", key=<redacted>]";
    }
}
