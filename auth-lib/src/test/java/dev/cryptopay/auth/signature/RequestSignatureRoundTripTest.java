package dev.cryptopay.auth.signature;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cryptopay.auth.keys.Ed25519KeyPairs;
import dev.cryptopay.auth.keys.RsaKeyPairs;
import dev.cryptopay.auth.keys.SigningKey;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Base64;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Sign with {@link RequestSigner}, verify with {@link RequestVerifier}, for both key types. */
class RequestSignatureRoundTripTest {

    private static final String TIMESTAMP = "2026-01-01T12:00:00Z";
    private static final Clock CLOCK = Clock.fixed(Instant.parse(TIMESTAMP), ZoneOffset.UTC);
    private static final RequestVerifier VERIFIER = RequestVerifier.withDefaults(CLOCK);
    private static final RequestVerifier STRICT_QUERY_VERIFIER =
            new RequestVerifier(CLOCK, RequestVerifier.DEFAULT_WINDOW, true);
    private static final byte[] BODY = utf8("{\"payment_name\":\"Café ☕\",\"note\":\"日本語 🚀👍🏽\",\"amount\":10}");

    private static final SigningKey ED25519 =
            SigningKey.parse(Ed25519KeyPairs.generate(new SecureRandom()).privateKeyPem());
    private static final SigningKey RSA =
            SigningKey.parse(RsaKeyPairs.generate(new SecureRandom(), 2048).privateKeyPem());

    static Stream<Arguments> keys() {
        return Stream.of(Arguments.of(ED25519), Arguments.of(RSA));
    }

    @ParameterizedTest
    @MethodSource("keys")
    void acceptsSignatureOverNonAsciiBody(SigningKey key) {
        String signature = sign(key, "POST", "/payment_links", BODY);

        assertThat(verify(VERIFIER, key, "POST", "/payment_links", null, signature, BODY))
                .isEqualTo(VerificationOutcome.OK);
    }

    @ParameterizedTest
    @MethodSource("keys")
    void acceptsEmptyAndNullBodiesInterchangeably(SigningKey key) {
        String signature = sign(key, "GET", "/payment_links", null);

        assertThat(verify(VERIFIER, key, "GET", "/payment_links", null, signature, new byte[0]))
                .isEqualTo(VerificationOutcome.OK);
        assertThat(verify(VERIFIER, key, "GET", "/payment_links", "", signature, null))
                .isEqualTo(VerificationOutcome.OK);
    }

    @ParameterizedTest
    @MethodSource("keys")
    void rejectsBodyTamperedByOneByte(SigningKey key) {
        String signature = sign(key, "POST", "/payment_links", BODY);
        byte[] tampered = BODY.clone();
        tampered[tampered.length - 2] ^= 0x01;

        assertThat(verify(VERIFIER, key, "POST", "/payment_links", null, signature, tampered))
                .isEqualTo(VerificationOutcome.INVALID_SIGNATURE);
    }

    @ParameterizedTest
    @MethodSource("keys")
    void rejectsSignatureForAnotherPath(SigningKey key) {
        String signature = sign(key, "POST", "/payment_links", BODY);

        assertThat(verify(VERIFIER, key, "POST", "/subscriptions", null, signature, BODY))
                .isEqualTo(VerificationOutcome.INVALID_SIGNATURE);
    }

    @ParameterizedTest
    @MethodSource("keys")
    void rejectsLowerCaseMethodSignedButPostSent(SigningKey key) {
        String signature = sign(key, "post", "/payment_links", BODY);

        assertThat(verify(VERIFIER, key, "POST", "/payment_links", null, signature, BODY))
                .isEqualTo(VerificationOutcome.INVALID_SIGNATURE);
    }

    @ParameterizedTest
    @MethodSource("keys")
    void rejectsSignatureForAnotherMethod(SigningKey key) {
        String signature = sign(key, "GET", "/payment_links", null);

        assertThat(verify(VERIFIER, key, "DELETE", "/payment_links", null, signature, null))
                .isEqualTo(VerificationOutcome.INVALID_SIGNATURE);
    }

    @ParameterizedTest
    @MethodSource("keys")
    void rejectsSignatureWithAnotherTimestamp(SigningKey key) {
        String signature = RequestSigner.sign(key, new CanonicalRequest("GET", "/x", TIMESTAMP, null));

        assertThat(VERIFIER.verify(key.verificationKey(), "GET", "/x", null, "2026-01-01T12:00:01Z", signature, null))
                .isEqualTo(VerificationOutcome.INVALID_SIGNATURE);
    }

    @ParameterizedTest
    @MethodSource("keys")
    void acceptsSignedPathWithQueryByDefault(SigningKey key) {
        String signature = sign(key, "GET", "/payment_links?a=1", null);

        assertThat(verify(VERIFIER, key, "GET", "/payment_links", "a=1", signature, null))
                .isEqualTo(VerificationOutcome.OK);
    }

    @ParameterizedTest
    @MethodSource("keys")
    void acceptsSignedPathWithoutQueryByDefault(SigningKey key) {
        String signature = sign(key, "GET", "/payment_links", null);

        assertThat(verify(VERIFIER, key, "GET", "/payment_links", "a=1", signature, null))
                .isEqualTo(VerificationOutcome.OK);
    }

    @ParameterizedTest
    @MethodSource("keys")
    void strictModeAcceptsOnlySignedPathWithQuery(SigningKey key) {
        String withQuery = sign(key, "GET", "/payment_links?a=1", null);
        String withoutQuery = sign(key, "GET", "/payment_links", null);

        assertThat(verify(STRICT_QUERY_VERIFIER, key, "GET", "/payment_links", "a=1", withQuery, null))
                .isEqualTo(VerificationOutcome.OK);
        assertThat(verify(STRICT_QUERY_VERIFIER, key, "GET", "/payment_links", "a=1", withoutQuery, null))
                .isEqualTo(VerificationOutcome.INVALID_SIGNATURE);
    }

    @ParameterizedTest
    @MethodSource("keys")
    void strictModeStillAcceptsPlainPathWhenThereIsNoQuery(SigningKey key) {
        String signature = sign(key, "GET", "/payment_links", null);

        assertThat(verify(STRICT_QUERY_VERIFIER, key, "GET", "/payment_links", null, signature, null))
                .isEqualTo(VerificationOutcome.OK);
    }

    @ParameterizedTest
    @MethodSource("keys")
    void rejectsSignedQueryWhenRequestHasNoQuery(SigningKey key) {
        String signature = sign(key, "GET", "/payment_links?a=1", null);

        assertThat(verify(VERIFIER, key, "GET", "/payment_links", null, signature, null))
                .isEqualTo(VerificationOutcome.INVALID_SIGNATURE);
        assertThat(verify(VERIFIER, key, "GET", "/payment_links", "", signature, null))
                .isEqualTo(VerificationOutcome.INVALID_SIGNATURE);
    }

    @ParameterizedTest
    @MethodSource("keys")
    void rejectsSignatureOverAnotherQuery(SigningKey key) {
        String signature = sign(key, "GET", "/payment_links?a=1", null);

        assertThat(verify(VERIFIER, key, "GET", "/payment_links", "a=2", signature, null))
                .isEqualTo(VerificationOutcome.INVALID_SIGNATURE);
    }

    @ParameterizedTest
    @MethodSource("keys")
    void signatureIsStandardPaddedBase64(SigningKey key) {
        String signature = sign(key, "GET", "/x", null);

        assertThat(signature).matches("[A-Za-z0-9+/]+={0,2}");
        assertThat(signature.length() % 4).isZero();
        assertThat(Base64.getDecoder().decode(signature)).hasSize(key == ED25519 ? 64 : 256);
    }

    private static String sign(SigningKey key, String method, String signedPath, byte[] body) {
        return RequestSigner.sign(key, new CanonicalRequest(method, signedPath, TIMESTAMP, body));
    }

    private static VerificationOutcome verify(
            RequestVerifier verifier,
            SigningKey key,
            String method,
            String path,
            String rawQuery,
            String signature,
            byte[] body) {
        return verifier.verify(key.verificationKey(), method, path, rawQuery, TIMESTAMP, signature, body);
    }

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
