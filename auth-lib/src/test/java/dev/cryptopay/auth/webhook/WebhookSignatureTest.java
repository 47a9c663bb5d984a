package dev.cryptopay.auth.webhook;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.NullAndEmptySource;
import org.junit.jupiter.params.provider.ValueSource;

class WebhookSignatureTest {

    private static final String SECRET = "whsec_xkNXECjXtWZXWi862MqtFv53cTYP2BwU445Jomr85n8=";
    private static final byte[] BODY =
            "{\"id\":\"evt_1\",\"type\":\"payment.succeeded\",\"data\":{\"payment_name\":\"Café ☕\",\"amount\":\"10.00\",\"currency\":\"USDC\"}}"
                    .getBytes(StandardCharsets.UTF_8);
    private static final long SIGNED_AT = 1767268800L; // 2026-01-01T12:00:00Z
    private static final Instant NOW = Instant.ofEpochSecond(SIGNED_AT);
    private static final Duration TOLERANCE = Duration.ofMinutes(5);

    /**
     * Computed independently with the OpenSSL CLI (the key is the whole secret string, prefix included):
     * <pre>
     * printf '%s' '{"id":"evt_1","type":"payment.succeeded","data":{"payment_name":"Café ☕","amount":"10.00","currency":"USDC"}}' \
     *   | openssl dgst -sha256 -hmac 'whsec_xkNXECjXtWZXWi862MqtFv53cTYP2BwU445Jomr85n8='
     * </pre>
     */
    private static final String OPENSSL_SIGNATURE = "9fa41db5ae1fccbdc520a5369255fa716120b72217f03d2ca984d3317fe81dd0";

    /**
     * <pre>
     * printf '%s' '1767268800.{"id":"evt_1","type":"payment.succeeded","data":{"payment_name":"Café ☕","amount":"10.00","currency":"USDC"}}' \
     *   | openssl dgst -sha256 -hmac 'whsec_xkNXECjXtWZXWi862MqtFv53cTYP2BwU445Jomr85n8='
     * </pre>
     */
    private static final String OPENSSL_TIMESTAMPED_SIGNATURE =
            "07e435538592a7e829491c26387c644a0221364cf12e432267826d12fcbaff6a";

    @Test
    void signMatchesOpenSslKnownAnswer() {
        assertThat(WebhookSignature.sign(SECRET, BODY)).isEqualTo(OPENSSL_SIGNATURE);
    }

    @Test
    void signTimestampedMatchesOpenSslKnownAnswer() {
        assertThat(WebhookSignature.signTimestamped(SECRET, SIGNED_AT, BODY)).isEqualTo(OPENSSL_TIMESTAMPED_SIGNATURE);
    }

    @Test
    void keyIsTheWholeSecretStringNotTheDecodedBytes() {
        byte[] decoded = Base64.getDecoder().decode(SECRET.substring("whsec_".length()));

        assertThat(WebhookSignature.sign(SECRET, BODY))
                .isEqualTo(WebhookSignature.hmacSha256Hex(SECRET.getBytes(StandardCharsets.UTF_8), BODY))
                .isNotEqualTo(WebhookSignature.hmacSha256Hex(decoded, BODY));
    }

    @Test
    void verifyAcceptsMatchingSignature() {
        assertThat(WebhookSignature.verify(SECRET, BODY, OPENSSL_SIGNATURE)).isTrue();
    }

    @Test
    void verifyAcceptsUpperCaseHex() {
        assertThat(WebhookSignature.verify(SECRET, BODY, OPENSSL_SIGNATURE.toUpperCase()))
                .isTrue();
    }

    @Test
    void verifyRejectsOtherBody() {
        byte[] tampered = BODY.clone();
        tampered[5] ^= 0x01;

        assertThat(WebhookSignature.verify(SECRET, tampered, OPENSSL_SIGNATURE)).isFalse();
    }

    @Test
    void verifyRejectsOtherSecret() {
        String otherSecret = "whsec_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=";

        assertThat(WebhookSignature.verify(otherSecret, BODY, OPENSSL_SIGNATURE))
                .isFalse();
    }

    @ParameterizedTest
    @NullAndEmptySource
    @ValueSource(
            strings = {
                "zz",
                "9fa41db5ae1fccbdc520a5369255fa716120b72217f03d2ca984d3317fe81dd", // odd length
                "9fa41db5ae1fccbdc520a5369255fa716120b72217f03d2ca984d3317fe81d", // one byte short
                "9fa41db5ae1fccbdc520a5369255fa716120b72217f03d2ca984d3317fe81dd000", // one byte long
                "sha256=9fa41db5ae1fccbdc520a5369255fa716120b72217f03d2ca984d3317fe81dd0",
                " 9fa41db5ae1fccbdc520a5369255fa716120b72217f03d2ca984d3317fe81dd0",
            })
    void verifyReturnsFalseForMalformedHex(String signature) {
        assertThat(WebhookSignature.verify(SECRET, BODY, signature)).isFalse();
    }

    @Test
    void nullBodyIsSignedAsEmpty() {
        assertThat(WebhookSignature.sign(SECRET, null)).isEqualTo(WebhookSignature.sign(SECRET, new byte[0]));
    }

    @Test
    void rejectsEmptySecret() {
        assertThatThrownBy(() -> WebhookSignature.sign("", BODY)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void timestampedSignatureDiffersFromPlainSignature() {
        assertThat(WebhookSignature.signTimestamped(SECRET, SIGNED_AT, BODY))
                .isNotEqualTo(WebhookSignature.sign(SECRET, BODY));
    }

    @Test
    void verifyTimestampedAcceptsFreshSignature() {
        assertThat(WebhookSignature.verifyTimestamped(
                        SECRET, SIGNED_AT, BODY, OPENSSL_TIMESTAMPED_SIGNATURE, NOW, TOLERANCE))
                .isTrue();
    }

    @Test
    void verifyTimestampedAcceptsSignatureExactlyAtTolerance() {
        assertThat(WebhookSignature.verifyTimestamped(
                        SECRET, SIGNED_AT, BODY, OPENSSL_TIMESTAMPED_SIGNATURE, NOW.plus(TOLERANCE), TOLERANCE))
                .isTrue();
        assertThat(WebhookSignature.verifyTimestamped(
                        SECRET, SIGNED_AT, BODY, OPENSSL_TIMESTAMPED_SIGNATURE, NOW.minus(TOLERANCE), TOLERANCE))
                .isTrue();
    }

    @Test
    void verifyTimestampedRejectsSignatureOutsideTolerance() {
        assertThat(WebhookSignature.verifyTimestamped(
                        SECRET,
                        SIGNED_AT,
                        BODY,
                        OPENSSL_TIMESTAMPED_SIGNATURE,
                        NOW.plus(TOLERANCE).plusSeconds(1),
                        TOLERANCE))
                .isFalse();
        assertThat(WebhookSignature.verifyTimestamped(
                        SECRET,
                        SIGNED_AT,
                        BODY,
                        OPENSSL_TIMESTAMPED_SIGNATURE,
                        NOW.minus(TOLERANCE).minusSeconds(1),
                        TOLERANCE))
                .isFalse();
    }

    @Test
    void verifyTimestampedRejectsSignatureForAnotherTimestamp() {
        assertThat(WebhookSignature.verifyTimestamped(
                        SECRET, SIGNED_AT + 1, BODY, OPENSSL_TIMESTAMPED_SIGNATURE, NOW, TOLERANCE))
                .isFalse();
    }

    @Test
    void verifyTimestampedRejectsPlainSignature() {
        assertThat(WebhookSignature.verifyTimestamped(SECRET, SIGNED_AT, BODY, OPENSSL_SIGNATURE, NOW, TOLERANCE))
                .isFalse();
    }

    @Test
    void verifyTimestampedReturnsFalseForMalformedHexAndExtremeTimestamps() {
        assertThat(WebhookSignature.verifyTimestamped(SECRET, SIGNED_AT, BODY, "xyz", NOW, TOLERANCE))
                .isFalse();
        assertThat(WebhookSignature.verifyTimestamped(
                        SECRET, Long.MIN_VALUE, BODY, OPENSSL_TIMESTAMPED_SIGNATURE, NOW, TOLERANCE))
                .isFalse();
        assertThat(WebhookSignature.verifyTimestamped(
                        SECRET, Long.MAX_VALUE, BODY, OPENSSL_TIMESTAMPED_SIGNATURE, NOW, TOLERANCE))
                .isFalse();
    }
}
