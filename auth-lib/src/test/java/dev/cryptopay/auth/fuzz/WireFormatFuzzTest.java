package dev.cryptopay.auth.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.cryptopay.auth.apikey.ApiKey;
import dev.cryptopay.auth.bip32.Base58Check;
import dev.cryptopay.auth.bip32.ExtendedPublicKey;
import dev.cryptopay.auth.keys.Ed25519KeyPairs;
import dev.cryptopay.auth.keys.VerificationKey;
import dev.cryptopay.auth.signature.RequestVerifier;
import dev.cryptopay.auth.signature.VerificationOutcome;
import dev.cryptopay.auth.webhook.WebhookSignature;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;

/**
 * Fuzz tests of every parser that reads text a stranger controls: API keys, public keys, extended public keys,
 * request timestamps and signatures, webhook signatures. The contract is the same everywhere: a value is accepted or
 * refused with {@link IllegalArgumentException} (or a refusing outcome), never another exception, and quickly.
 *
 * <p>{@code ./mvnw verify} replays the committed corpus under {@code src/test/resources/.../*Inputs/<method>/} and,
 * in the {@code fuzz} execution, fuzzes each target for a bounded time (see the module README).
 */
class WireFormatFuzzTest {

    private static final Duration TOLERANCE = Duration.ofMinutes(5);
    private static final Instant NOW = Instant.parse("2026-01-01T00:00:00Z");
    private static final RequestVerifier VERIFIER = RequestVerifier.withDefaults(Clock.fixed(NOW, ZoneOffset.UTC));
    private static final VerificationKey ED25519 =
            VerificationKey.parse(Ed25519KeyPairs.generate(new SecureRandom()).publicKeyPem());
    /** Fixed, so a committed input replays the same way on every machine. */
    private static final String WEBHOOK_SECRET = "whsec_MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=";

    @FuzzTest(maxDuration = "10s")
    void apiKeysAreParsedOrRefused(byte[] input) {
        String text = new String(input, StandardCharsets.UTF_8);
        boolean wellFormed = ApiKey.isWellFormed(text);
        try {
            ApiKey key = ApiKey.parse(text);
            assertThat(wellFormed).isTrue();
            assertThat(key.value()).isEqualTo(text);
        } catch (IllegalArgumentException refused) {
            assertThat(wellFormed).isFalse();
        }
    }

    @FuzzTest(maxDuration = "10s")
    void publicKeysAreParsedOrRefused(byte[] input) {
        String text = new String(input, StandardCharsets.UTF_8);
        try {
            VerificationKey key = VerificationKey.parse(text);
            assertThat(VerificationKey.parse(key.toPem())).isEqualTo(key);
        } catch (IllegalArgumentException refused) {
            assertThat(refused.getMessage()).isNotBlank();
        }
    }

    @FuzzTest(maxDuration = "10s")
    void extendedPublicKeysAreParsedOrRefused(byte[] input) {
        String text = new String(input, StandardCharsets.UTF_8);
        try {
            ExtendedPublicKey.parse(text);
        } catch (IllegalArgumentException refused) {
            assertThat(refused.getMessage()).isNotBlank();
        }
        try {
            byte[] payload = Base58Check.decode(text);
            assertThat(Base58Check.decode(Base58Check.encode(payload))).isEqualTo(payload);
        } catch (IllegalArgumentException refused) {
            assertThat(refused.getMessage()).isNotBlank();
        }
    }

    @FuzzTest(maxDuration = "10s")
    void signedRequestHeadersNeverThrow(FuzzedDataProvider data) {
        String timestamp = data.consumeString(40);
        String signature = data.consumeString(200);
        String method = data.consumeString(10);
        String path = data.consumeString(200);
        String query = data.consumeBoolean() ? null : data.consumeString(200);
        byte[] body = data.consumeRemainingAsBytes();

        VerificationOutcome headers = VERIFIER.checkHeaders("mk_test_ABCD", signature, timestamp);
        VerificationOutcome outcome = VERIFIER.verify(ED25519, method, path, query, timestamp, signature, body);

        assertThat(outcome).isNotNull().isNotEqualTo(VerificationOutcome.OK);
        assertThat(headers).isNotNull();
    }

    @FuzzTest(maxDuration = "10s")
    void webhookSignaturesNeverThrow(FuzzedDataProvider data) {
        String presented = data.consumeString(200);
        long timestamp = data.consumeLong();
        byte[] body = data.consumeRemainingAsBytes();

        assertThat(WebhookSignature.verify(WEBHOOK_SECRET, body, presented))
                .isEqualTo(presented.equalsIgnoreCase(WebhookSignature.sign(WEBHOOK_SECRET, body)));
        assertThat(WebhookSignature.verifyTimestamped(WEBHOOK_SECRET, timestamp, body, presented, NOW, TOLERANCE))
                .isEqualTo(Math.abs(timestamp - NOW.getEpochSecond()) <= TOLERANCE.getSeconds()
                        && presented.equalsIgnoreCase(
                                WebhookSignature.signTimestamped(WEBHOOK_SECRET, timestamp, body)));
    }
}
