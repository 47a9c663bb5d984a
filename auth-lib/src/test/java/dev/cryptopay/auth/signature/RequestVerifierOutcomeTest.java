package dev.cryptopay.auth.signature;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cryptopay.auth.keys.Ed25519KeyPairs;
import dev.cryptopay.auth.keys.RsaKeyPairs;
import dev.cryptopay.auth.keys.SigningKey;
import dev.cryptopay.auth.keys.VerificationKey;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.Base64;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.NullAndEmptySource;
import org.junit.jupiter.params.provider.ValueSource;

/** Every {@link VerificationOutcome}, with a fixed clock at 2026-01-01T12:00:00Z. */
class RequestVerifierOutcomeTest {

    private static final Instant NOW = Instant.parse("2026-01-01T12:00:00Z");
    private static final RequestVerifier VERIFIER = RequestVerifier.withDefaults(Clock.fixed(NOW, ZoneOffset.UTC));
    private static final String API_KEY = "mk_test_ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
    private static final String TIMESTAMP = "2026-01-01T12:00:00Z";
    private static final String SOME_SIGNATURE = Base64.getEncoder().encodeToString(new byte[64]);
    private static final byte[] BODY = "{\"amount\":10}".getBytes(StandardCharsets.UTF_8);

    private static final SigningKey ED25519 =
            SigningKey.parse(Ed25519KeyPairs.generate(new SecureRandom()).privateKeyCompact());
    private static final SigningKey OTHER_ED25519 =
            SigningKey.parse(Ed25519KeyPairs.generate(new SecureRandom()).privateKeyCompact());
    private static final SigningKey RSA =
            SigningKey.parse(RsaKeyPairs.generate(new SecureRandom(), 2048).privateKeyPem());

    // --- checkHeaders: presence ---

    @Test
    void acceptsCompleteFreshHeaders() {
        assertThat(VERIFIER.checkHeaders(API_KEY, SOME_SIGNATURE, TIMESTAMP)).isEqualTo(VerificationOutcome.OK);
    }

    @ParameterizedTest
    @NullAndEmptySource
    @ValueSource(strings = {"  ", "\t"})
    void reportsMissingApiKey(String apiKey) {
        assertThat(VERIFIER.checkHeaders(apiKey, SOME_SIGNATURE, TIMESTAMP))
                .isEqualTo(VerificationOutcome.MISSING_API_KEY);
    }

    @ParameterizedTest
    @NullAndEmptySource
    @ValueSource(strings = {"  ", "\t"})
    void reportsMissingSignature(String signature) {
        assertThat(VERIFIER.checkHeaders(API_KEY, signature, TIMESTAMP))
                .isEqualTo(VerificationOutcome.MISSING_SIGNATURE);
    }

    @ParameterizedTest
    @NullAndEmptySource
    @ValueSource(strings = {"  ", "\t"})
    void reportsMissingTimestamp(String timestamp) {
        assertThat(VERIFIER.checkHeaders(API_KEY, SOME_SIGNATURE, timestamp))
                .isEqualTo(VerificationOutcome.MISSING_TIMESTAMP);
    }

    @Test
    void reportsMissingHeadersInHeaderOrder() {
        assertThat(VERIFIER.checkHeaders(null, null, null)).isEqualTo(VerificationOutcome.MISSING_API_KEY);
        assertThat(VERIFIER.checkHeaders(API_KEY, null, null)).isEqualTo(VerificationOutcome.MISSING_SIGNATURE);
        assertThat(VERIFIER.checkHeaders(API_KEY, SOME_SIGNATURE, null))
                .isEqualTo(VerificationOutcome.MISSING_TIMESTAMP);
    }

    // --- checkHeaders: timestamp format ---

    @ParameterizedTest
    @ValueSource(
            strings = {
                "2026-01-01T12:00:00Z",
                "2026-01-01T12:00:00+00:00",
                "2026-01-01T12:00:00.123Z",
                "2026-01-01T12:00:00.123456789Z",
                "2026-01-01T13:00:00+01:00",
            })
    void acceptsIso8601TimestampsWithZone(String timestamp) {
        assertThat(VERIFIER.checkHeaders(API_KEY, SOME_SIGNATURE, timestamp)).isEqualTo(VerificationOutcome.OK);
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "garbage",
                "2026-01-01T12:00:00", // no zone
                "2026-01-01 12:00:00Z", // space instead of T
                "2026-01-01", // date only
                "1767268800", // epoch seconds
                "Thu, 01 Jan 2026 12:00:00 GMT",
                "2026-13-01T12:00:00Z", // month 13
                " 2026-01-01T12:00:00Z", // leading space
            })
    void reportsMalformedTimestamp(String timestamp) {
        assertThat(VERIFIER.checkHeaders(API_KEY, SOME_SIGNATURE, timestamp))
                .isEqualTo(VerificationOutcome.MALFORMED_TIMESTAMP);
    }

    // --- checkHeaders: window ---

    @Test
    void acceptsTimestampExactlyFiveMinutesOld() {
        assertThat(VERIFIER.checkHeaders(API_KEY, SOME_SIGNATURE, "2026-01-01T11:55:00Z"))
                .isEqualTo(VerificationOutcome.OK);
    }

    @Test
    void rejectsTimestampOlderThanFiveMinutes() {
        assertThat(VERIFIER.checkHeaders(API_KEY, SOME_SIGNATURE, "2026-01-01T11:54:59.999Z"))
                .isEqualTo(VerificationOutcome.TIMESTAMP_EXPIRED);
    }

    @Test
    void acceptsTimestampExactlyFiveMinutesAhead() {
        assertThat(VERIFIER.checkHeaders(API_KEY, SOME_SIGNATURE, "2026-01-01T12:05:00Z"))
                .isEqualTo(VerificationOutcome.OK);
    }

    @Test
    void rejectsTimestampMoreThanFiveMinutesAhead() {
        assertThat(VERIFIER.checkHeaders(API_KEY, SOME_SIGNATURE, "2026-01-01T12:05:00.001Z"))
                .isEqualTo(VerificationOutcome.TIMESTAMP_IN_FUTURE);
    }

    @Test
    void honoursCustomWindow() {
        RequestVerifier oneMinute = new RequestVerifier(Clock.fixed(NOW, ZoneOffset.UTC), Duration.ofMinutes(1), false);

        assertThat(oneMinute.checkHeaders(API_KEY, SOME_SIGNATURE, "2026-01-01T11:59:00Z"))
                .isEqualTo(VerificationOutcome.OK);
        assertThat(oneMinute.checkHeaders(API_KEY, SOME_SIGNATURE, "2026-01-01T11:58:59Z"))
                .isEqualTo(VerificationOutcome.TIMESTAMP_EXPIRED);
    }

    @Test
    void rejectsNegativeWindow() {
        assertThatThrownBy(() -> new RequestVerifier(Clock.systemUTC(), Duration.ofSeconds(-1), false))
                .isInstanceOf(IllegalArgumentException.class);
    }

    // --- verify: timestamp re-checked ---

    @Test
    void verifyRechecksTimestampBeforeTheSignature() {
        String oldTimestamp = "2026-01-01T11:54:59Z";
        String signature = RequestSigner.sign(ED25519, new CanonicalRequest("POST", "/x", oldTimestamp, BODY));

        assertThat(VERIFIER.verify(ED25519.verificationKey(), "POST", "/x", null, oldTimestamp, signature, BODY))
                .isEqualTo(VerificationOutcome.TIMESTAMP_EXPIRED);
        assertThat(VERIFIER.verify(
                        ED25519.verificationKey(), "POST", "/x", null, "2026-01-01T12:00:00", signature, BODY))
                .isEqualTo(VerificationOutcome.MALFORMED_TIMESTAMP);
        assertThat(VERIFIER.verify(ED25519.verificationKey(), "POST", "/x", null, null, signature, BODY))
                .isEqualTo(VerificationOutcome.MISSING_TIMESTAMP);
        assertThat(VERIFIER.verify(
                        ED25519.verificationKey(), "POST", "/x", null, "2026-01-01T12:05:01Z", signature, BODY))
                .isEqualTo(VerificationOutcome.TIMESTAMP_IN_FUTURE);
    }

    @ParameterizedTest
    @NullAndEmptySource
    void verifyReportsMissingSignature(String signature) {
        assertThat(VERIFIER.verify(ED25519.verificationKey(), "POST", "/x", null, TIMESTAMP, signature, BODY))
                .isEqualTo(VerificationOutcome.MISSING_SIGNATURE);
    }

    // --- verify: invalid signatures never throw ---

    @ParameterizedTest
    @ValueSource(strings = {"not base64!", "%%%%", "AAAA=AAA", "\u00e9\u00e9\u00e9\u00e9"})
    void reportsGarbageBase64AsInvalidSignature(String signature) {
        assertThat(verifyPaymentLink(ED25519.verificationKey(), signature))
                .isEqualTo(VerificationOutcome.INVALID_SIGNATURE);
        assertThat(verifyPaymentLink(RSA.verificationKey(), signature))
                .isEqualTo(VerificationOutcome.INVALID_SIGNATURE);
    }

    @Test
    void reportsSixtyThreeByteSignatureAsInvalid() {
        byte[] valid = Base64.getDecoder().decode(signPaymentLink(ED25519));
        String truncated = Base64.getEncoder().encodeToString(Arrays.copyOf(valid, 63));

        assertThat(verifyPaymentLink(ED25519.verificationKey(), truncated))
                .isEqualTo(VerificationOutcome.INVALID_SIGNATURE);
    }

    @Test
    void reportsAllOnesSignatureAsInvalid() {
        byte[] ones = new byte[64];
        Arrays.fill(ones, (byte) 0xFF);

        assertThat(verifyPaymentLink(
                        ED25519.verificationKey(), Base64.getEncoder().encodeToString(ones)))
                .isEqualTo(VerificationOutcome.INVALID_SIGNATURE);
    }

    @Test
    void reportsSignatureByAnotherKeyAsInvalid() {
        assertThat(verifyPaymentLink(ED25519.verificationKey(), signPaymentLink(OTHER_ED25519)))
                .isEqualTo(VerificationOutcome.INVALID_SIGNATURE);
    }

    @Test
    void reportsEd25519SignatureCheckedWithRsaKeyAsInvalid() {
        assertThat(verifyPaymentLink(RSA.verificationKey(), signPaymentLink(ED25519)))
                .isEqualTo(VerificationOutcome.INVALID_SIGNATURE);
    }

    @Test
    void reportsRsaSignatureCheckedWithEd25519KeyAsInvalid() {
        assertThat(verifyPaymentLink(ED25519.verificationKey(), signPaymentLink(RSA)))
                .isEqualTo(VerificationOutcome.INVALID_SIGNATURE);
    }

    @Test
    void reportsOversizedRsaSignatureAsInvalid() {
        String oversized = Base64.getEncoder().encodeToString(new byte[257]);

        assertThat(verifyPaymentLink(RSA.verificationKey(), oversized))
                .isEqualTo(VerificationOutcome.INVALID_SIGNATURE);
    }

    @Test
    void acceptsAValidSignature() {
        assertThat(verifyPaymentLink(ED25519.verificationKey(), signPaymentLink(ED25519)))
                .isEqualTo(VerificationOutcome.OK);
        assertThat(verifyPaymentLink(RSA.verificationKey(), signPaymentLink(RSA)))
                .isEqualTo(VerificationOutcome.OK);
    }

    // --- outcome texts ---

    @Test
    void outcomesCarryClientMessagesAndSnakeCaseCodes() {
        assertThat(VerificationOutcome.OK.message()).isEqualTo("OK");
        assertThat(VerificationOutcome.MISSING_API_KEY.message()).isEqualTo("Missing X-API-Key header");
        assertThat(VerificationOutcome.MISSING_SIGNATURE.message()).isEqualTo("Missing X-API-Signature header");
        assertThat(VerificationOutcome.MISSING_TIMESTAMP.message()).isEqualTo("Missing X-API-Timestamp header");
        assertThat(VerificationOutcome.MALFORMED_TIMESTAMP.message())
                .isEqualTo("Malformed X-API-Timestamp: expected ISO 8601 UTC, e.g. 2026-01-01T12:00:00Z");
        assertThat(VerificationOutcome.TIMESTAMP_EXPIRED.message()).isEqualTo("Timestamp expired");
        assertThat(VerificationOutcome.TIMESTAMP_IN_FUTURE.message()).isEqualTo("Timestamp expired");
        assertThat(VerificationOutcome.INVALID_SIGNATURE.message()).isEqualTo("Invalid signature");

        assertThat(VerificationOutcome.OK.code()).isEqualTo("ok");
        assertThat(VerificationOutcome.MISSING_API_KEY.code()).isEqualTo("missing_api_key");
        assertThat(VerificationOutcome.MALFORMED_TIMESTAMP.code()).isEqualTo("malformed_timestamp");
        assertThat(VerificationOutcome.TIMESTAMP_EXPIRED.code()).isEqualTo("timestamp_expired");
        assertThat(VerificationOutcome.TIMESTAMP_IN_FUTURE.code()).isEqualTo("timestamp_in_future");
        assertThat(VerificationOutcome.INVALID_SIGNATURE.code()).isEqualTo("invalid_signature");
    }

    @Test
    void headerNamesAreStable() {
        assertThat(AuthHeaders.API_KEY).isEqualTo("X-API-Key");
        assertThat(AuthHeaders.SIGNATURE).isEqualTo("X-API-Signature");
        assertThat(AuthHeaders.TIMESTAMP).isEqualTo("X-API-Timestamp");
    }

    private static String signPaymentLink(SigningKey key) {
        return RequestSigner.sign(key, new CanonicalRequest("POST", "/payment_links", TIMESTAMP, BODY));
    }

    private static VerificationOutcome verifyPaymentLink(VerificationKey key, String signature) {
        return VERIFIER.verify(key, "POST", "/payment_links", null, TIMESTAMP, signature, BODY);
    }
}
