package dev.cryptopay.auth.signature;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cryptopay.auth.Fixtures;
import dev.cryptopay.auth.keys.SigningKey;
import dev.cryptopay.auth.keys.VerificationKey;
import org.junit.jupiter.api.Test;

/** An Ed25519 key and signature made by the OpenSSL CLI ({@code openssl pkeyutl -sign -rawin}). */
class OpenSslEd25519FixtureTest {

    private static final VerificationKey PUBLIC_KEY =
            VerificationKey.parse(Fixtures.text("ed25519-openssl-test-only-public.pem"));
    private static final String OPENSSL_SIGNATURE =
            Fixtures.text("canonical-request.ed25519-openssl.sig.b64").strip();

    @Test
    void verifierAcceptsOpenSslSignature() {
        assertThat(RequestVerifier.withDefaults(FixtureRequest.CLOCK)
                        .verify(
                                PUBLIC_KEY,
                                FixtureRequest.METHOD,
                                FixtureRequest.PATH,
                                null,
                                FixtureRequest.TIMESTAMP,
                                OPENSSL_SIGNATURE,
                                FixtureRequest.BODY))
                .isEqualTo(VerificationOutcome.OK);
    }

    @Test
    void ourSignerProducesOpenSslsExactSignature() {
        SigningKey key = SigningKey.parse(Fixtures.text("ed25519-openssl-test-only-private.pem"));

        assertThat(key.verificationKey()).isEqualTo(PUBLIC_KEY);
        assertThat(RequestSigner.sign(key, FixtureRequest.canonical())).isEqualTo(OPENSSL_SIGNATURE);
    }
}
