package dev.cryptopay.auth.signature;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cryptopay.auth.Fixtures;
import dev.cryptopay.auth.keys.KeyAlgorithm;
import dev.cryptopay.auth.keys.SigningKey;
import dev.cryptopay.auth.keys.VerificationKey;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** An RSA-PSS signature made by the OpenSSL CLI (see fixtures/README.md) must verify with our verifier. */
class OpenSslRsaPssFixtureTest {

    private static final VerificationKey PUBLIC_KEY =
            VerificationKey.parse(Fixtures.text("rsa-2048-test-only-public.pem"));
    private static final String OPENSSL_SIGNATURE =
            Fixtures.text("canonical-request.rsa-pss.sig.b64").strip();
    private static final RequestVerifier VERIFIER = RequestVerifier.withDefaults(FixtureRequest.CLOCK);

    @Test
    void fixtureMessageIsTheCanonicalRequestWithMultibyteBody() {
        byte[] message = Fixtures.bytes("canonical-request.txt");

        assertThat(message).isEqualTo(FixtureRequest.canonical().toBytes());
        assertThat(message.length).isGreaterThan(new String(message, StandardCharsets.UTF_8).length());
    }

    @Test
    void verifierAcceptsOpenSslSignature() {
        assertThat(verify(OPENSSL_SIGNATURE)).isEqualTo(VerificationOutcome.OK);
    }

    @Test
    void verifierRejectsOpenSslSignatureOverTamperedBody() {
        byte[] tampered = FixtureRequest.BODY.clone();
        tampered[10] ^= 0x01;

        assertThat(VERIFIER.verify(
                        PUBLIC_KEY,
                        FixtureRequest.METHOD,
                        FixtureRequest.PATH,
                        null,
                        FixtureRequest.TIMESTAMP,
                        OPENSSL_SIGNATURE,
                        tampered))
                .isEqualTo(VerificationOutcome.INVALID_SIGNATURE);
    }

    @Test
    void signingKeyReadsOpenSslPrivateKey() {
        SigningKey key = SigningKey.parse(Fixtures.text("rsa-2048-test-only-private.pem"));

        assertThat(key.algorithm()).isEqualTo(KeyAlgorithm.RSA_PSS_SHA256);
        assertThat(key.verificationKey()).isEqualTo(PUBLIC_KEY);
    }

    @Test
    void ourSignatureWithOpenSslKeyVerifies() {
        SigningKey key = SigningKey.parse(Fixtures.text("rsa-2048-test-only-private.pem"));

        assertThat(verify(RequestSigner.sign(key, FixtureRequest.canonical()))).isEqualTo(VerificationOutcome.OK);
    }

    private static VerificationOutcome verify(String signature) {
        return VERIFIER.verify(
                PUBLIC_KEY,
                FixtureRequest.METHOD,
                FixtureRequest.PATH,
                null,
                FixtureRequest.TIMESTAMP,
                signature,
                FixtureRequest.BODY);
    }
}
