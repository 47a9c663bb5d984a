package dev.cryptopay.auth.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cryptopay.auth.Mode;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.NullAndEmptySource;
import org.junit.jupiter.params.provider.ValueSource;

class InternalIdentityTokenTest {

    private static final String SECRET = "test-only-internal-secret-0123456789";
    private static final InternalIdentityToken TOKENS = InternalIdentityToken.fromSecret(SECRET);
    private static final MerchantIdentity MERCHANT =
            new MerchantIdentity(UUID.fromString("3f2c1a9e-8b7d-4c6e-9f01-23456789abcd"), Mode.LIVE);
    private static final Instant ISSUED_AT = Instant.parse("2026-01-01T12:00:00Z"); // 1767268800
    private static final Duration MAX_AGE = InternalIdentityToken.DEFAULT_MAX_AGE;

    /**
     * Computed independently with the OpenSSL CLI:
     * <pre>
     * printf 'v1\n%s\n%s\n%s\n%s\n%s' 3f2c1a9e-8b7d-4c6e-9f01-23456789abcd live POST /payment_links 1767268800 \
     *   | openssl dgst -sha256 -hmac 'test-only-internal-secret-0123456789' -binary \
     *   | openssl base64 -A | tr '+/' '-_' | tr -d '='
     * </pre>
     */
    private static final String OPENSSL_MERCHANT_TOKEN = "v1.1767268800.k7o0fEH9qXUVREUHoUJ3ofJCsR6tkaEdTMhgjqXj7dg";

    /** As above with empty merchant id and mode: {@code printf 'v1\n\n\n%s\n%s\n%s' GET /internal/health 1767268800 | ...}. */
    private static final String OPENSSL_NO_MERCHANT_TOKEN = "v1.1767268800.l25tDoA27Y_w9J6QDQGHj249uBzl-YtnyW4yd0BcGus";

    @Test
    void issuesTheDocumentedFormat() {
        assertThat(TOKENS.issue(MERCHANT, "POST", "/payment_links", ISSUED_AT)).isEqualTo(OPENSSL_MERCHANT_TOKEN);
    }

    @Test
    void issuesTheDocumentedFormatWithoutMerchant() {
        assertThat(TOKENS.issue(null, "GET", "/internal/health", ISSUED_AT)).isEqualTo(OPENSSL_NO_MERCHANT_TOKEN);
    }

    @Test
    void truncatesIssuedAtToWholeSeconds() {
        assertThat(TOKENS.issue(MERCHANT, "POST", "/payment_links", ISSUED_AT.plusMillis(999)))
                .isEqualTo(OPENSSL_MERCHANT_TOKEN);
    }

    @Test
    void roundTripsForMerchant() {
        String token = TOKENS.issue(MERCHANT, "POST", "/payment_links", ISSUED_AT);

        assertThat(TOKENS.verify(token, MERCHANT, "POST", "/payment_links", ISSUED_AT, MAX_AGE))
                .isEqualTo(InternalTokenOutcome.VALID);
    }

    @Test
    void roundTripsWithoutMerchant() {
        String token = TOKENS.issue(null, "GET", "/internal/health", ISSUED_AT);

        assertThat(TOKENS.verify(token, null, "GET", "/internal/health", ISSUED_AT, MAX_AGE))
                .isEqualTo(InternalTokenOutcome.VALID);
    }

    @Test
    void anotherInstanceWithTheSameSecretVerifies() {
        InternalIdentityToken sameSecret = new InternalIdentityToken(SECRET.getBytes(StandardCharsets.UTF_8));

        assertThat(sameSecret.verify(OPENSSL_MERCHANT_TOKEN, MERCHANT, "POST", "/payment_links", ISSUED_AT))
                .isEqualTo(InternalTokenOutcome.VALID);
    }

    @Test
    void rejectsOtherMerchantId() {
        MerchantIdentity other =
                new MerchantIdentity(UUID.fromString("3f2c1a9e-8b7d-4c6e-9f01-23456789abce"), Mode.LIVE);

        assertThat(verifyAt(ISSUED_AT, other, "POST", "/payment_links")).isEqualTo(InternalTokenOutcome.BAD_MAC);
    }

    @Test
    void rejectsOtherMode() {
        MerchantIdentity testMode = new MerchantIdentity(MERCHANT.merchantId(), Mode.TEST);

        assertThat(verifyAt(ISSUED_AT, testMode, "POST", "/payment_links")).isEqualTo(InternalTokenOutcome.BAD_MAC);
    }

    @Test
    void rejectsMissingMerchantWhenTokenNamesOne() {
        assertThat(verifyAt(ISSUED_AT, null, "POST", "/payment_links")).isEqualTo(InternalTokenOutcome.BAD_MAC);
    }

    @Test
    void rejectsMerchantAddedToTokenWithoutOne() {
        assertThat(TOKENS.verify(OPENSSL_NO_MERCHANT_TOKEN, MERCHANT, "GET", "/internal/health", ISSUED_AT, MAX_AGE))
                .isEqualTo(InternalTokenOutcome.BAD_MAC);
    }

    @Test
    void rejectsOtherMethod() {
        assertThat(verifyAt(ISSUED_AT, MERCHANT, "GET", "/payment_links")).isEqualTo(InternalTokenOutcome.BAD_MAC);
    }

    @Test
    void rejectsOtherPath() {
        assertThat(verifyAt(ISSUED_AT, MERCHANT, "POST", "/subscriptions")).isEqualTo(InternalTokenOutcome.BAD_MAC);
    }

    @Test
    void rejectsTokenFromAnotherSecret() {
        InternalIdentityToken other = InternalIdentityToken.fromSecret("another-test-only-secret-0123456789");
        String token = other.issue(MERCHANT, "POST", "/payment_links", ISSUED_AT);

        assertThat(TOKENS.verify(token, MERCHANT, "POST", "/payment_links", ISSUED_AT, MAX_AGE))
                .isEqualTo(InternalTokenOutcome.BAD_MAC);
    }

    @Test
    void rejectsTamperedIssuedAt() {
        String tampered = OPENSSL_MERCHANT_TOKEN.replace(".1767268800.", ".1767268801.");

        assertThat(TOKENS.verify(tampered, MERCHANT, "POST", "/payment_links", ISSUED_AT, MAX_AGE))
                .isEqualTo(InternalTokenOutcome.BAD_MAC);
    }

    @Test
    void acceptsTokenExactlySixtySecondsOld() {
        assertThat(verifyAt(ISSUED_AT.plusSeconds(60), MERCHANT, "POST", "/payment_links"))
                .isEqualTo(InternalTokenOutcome.VALID);
    }

    @Test
    void rejectsTokenSixtyOneSecondsOld() {
        assertThat(verifyAt(ISSUED_AT.plusSeconds(61), MERCHANT, "POST", "/payment_links"))
                .isEqualTo(InternalTokenOutcome.EXPIRED);
    }

    @Test
    void acceptsTokenFiveSecondsInTheFuture() {
        assertThat(verifyAt(ISSUED_AT.minusSeconds(5), MERCHANT, "POST", "/payment_links"))
                .isEqualTo(InternalTokenOutcome.VALID);
    }

    @Test
    void rejectsTokenSixSecondsInTheFuture() {
        assertThat(verifyAt(ISSUED_AT.minusSeconds(6), MERCHANT, "POST", "/payment_links"))
                .isEqualTo(InternalTokenOutcome.NOT_YET_VALID);
    }

    @Test
    void honoursCustomMaxAge() {
        assertThat(TOKENS.verify(
                        OPENSSL_MERCHANT_TOKEN,
                        MERCHANT,
                        "POST",
                        "/payment_links",
                        ISSUED_AT.plusSeconds(11),
                        Duration.ofSeconds(10)))
                .isEqualTo(InternalTokenOutcome.EXPIRED);
    }

    @ParameterizedTest
    @NullAndEmptySource
    @ValueSource(strings = {"  ", "\t"})
    void reportsMissingToken(String token) {
        assertThat(TOKENS.verify(token, MERCHANT, "POST", "/payment_links", ISSUED_AT, MAX_AGE))
                .isEqualTo(InternalTokenOutcome.MISSING);
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "garbage",
                "v1.1767268800",
                "v2.1767268800.k7o0fEH9qXUVREUHoUJ3ofJCsR6tkaEdTMhgjqXj7dg",
                "V1.1767268800.k7o0fEH9qXUVREUHoUJ3ofJCsR6tkaEdTMhgjqXj7dg",
                "v1.abc.k7o0fEH9qXUVREUHoUJ3ofJCsR6tkaEdTMhgjqXj7dg",
                "v1.-1767268800.k7o0fEH9qXUVREUHoUJ3ofJCsR6tkaEdTMhgjqXj7dg",
                "v1.01767268800.k7o0fEH9qXUVREUHoUJ3ofJCsR6tkaEdTMhgjqXj7dg",
                "v1.99999999999999999999999.k7o0fEH9qXUVREUHoUJ3ofJCsR6tkaEdTMhgjqXj7dg",
                "v1.1767268800.k7o0fEH9qXUVREUHoUJ3ofJCsR6tkaEdTMhgjqXj7d", // MAC one char short
                "v1.1767268800.k7o0fEH9qXUVREUHoUJ3ofJCsR6tkaEdTMhgjqXj7dg=", // padded
                "v1.1767268800.k7o0fEH9qXUVREUHoUJ3ofJCsR6tkaEdTMhgjqXj7d+", // standard Base64 alphabet
                "v1.1767268800.k7o0fEH9qXUVREUHoUJ3ofJCsR6tkaEdTMhgjqXj7dg.extra",
                " v1.1767268800.k7o0fEH9qXUVREUHoUJ3ofJCsR6tkaEdTMhgjqXj7dg",
            })
    void reportsMalformedToken(String token) {
        assertThat(TOKENS.verify(token, MERCHANT, "POST", "/payment_links", ISSUED_AT, MAX_AGE))
                .isEqualTo(InternalTokenOutcome.MALFORMED);
    }

    @Test
    void rejectsSecretShorterThanThirtyTwoBytes() {
        assertThatThrownBy(() -> new InternalIdentityToken(new byte[31]))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("at least 32 bytes");
        assertThatThrownBy(() -> InternalIdentityToken.fromSecret("too-short"))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void acceptsSecretOfExactlyThirtyTwoBytes() {
        assertThat(new InternalIdentityToken(new byte[32]).issue(null, "GET", "/", ISSUED_AT))
                .startsWith("v1.1767268800.");
    }

    @Test
    void copiesTheSecret() {
        byte[] secret = SECRET.getBytes(StandardCharsets.UTF_8);
        InternalIdentityToken tokens = new InternalIdentityToken(secret);
        secret[0] ^= 0x01;

        assertThat(tokens.issue(MERCHANT, "POST", "/payment_links", ISSUED_AT)).isEqualTo(OPENSSL_MERCHANT_TOKEN);
    }

    @Test
    void headerNamesAreStable() {
        assertThat(InternalHeaders.MERCHANT_ID).isEqualTo("X-Merchant-Id");
        assertThat(InternalHeaders.MERCHANT_MODE).isEqualTo("X-Merchant-Mode");
        assertThat(InternalHeaders.REQUEST_ID).isEqualTo("X-Request-Id");
        assertThat(InternalHeaders.INTERNAL_AUTH).isEqualTo("X-Internal-Auth");
    }

    private static InternalTokenOutcome verifyAt(Instant now, MerchantIdentity identity, String method, String path) {
        return TOKENS.verify(OPENSSL_MERCHANT_TOKEN, identity, method, path, now, MAX_AGE);
    }
}
