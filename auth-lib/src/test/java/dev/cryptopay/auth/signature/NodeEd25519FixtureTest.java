package dev.cryptopay.auth.signature;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cryptopay.auth.Fixtures;
import dev.cryptopay.auth.keys.KeyAlgorithm;
import dev.cryptopay.auth.keys.SigningKey;
import dev.cryptopay.auth.keys.VerificationKey;
import org.junit.jupiter.api.Test;

/** An Ed25519 key and signature made by Node.js crypto (fixtures/make-ed25519-node-fixture.mjs). */
class NodeEd25519FixtureTest {

    private static final VerificationKey PUBLIC_KEY =
            VerificationKey.parse(Fixtures.text("ed25519-node-test-only-public.pem"));
    private static final String NODE_SIGNATURE =
            Fixtures.text("canonical-request.ed25519-node.sig.b64").strip();
    private static final RequestVerifier VERIFIER = RequestVerifier.withDefaults(FixtureRequest.CLOCK);

    @Test
    void verifierAcceptsNodeSignature() {
        assertThat(VERIFIER.verify(
                        PUBLIC_KEY,
                        FixtureRequest.METHOD,
                        FixtureRequest.PATH,
                        null,
                        FixtureRequest.TIMESTAMP,
                        NODE_SIGNATURE,
                        FixtureRequest.BODY))
                .isEqualTo(VerificationOutcome.OK);
    }

    @Test
    void verifierRejectsNodeSignatureForAnotherPath() {
        assertThat(VERIFIER.verify(
                        PUBLIC_KEY,
                        FixtureRequest.METHOD,
                        "/subscriptions",
                        null,
                        FixtureRequest.TIMESTAMP,
                        NODE_SIGNATURE,
                        FixtureRequest.BODY))
                .isEqualTo(VerificationOutcome.INVALID_SIGNATURE);
    }

    @Test
    void ourSignerProducesNodesExactSignature() {
        SigningKey key = SigningKey.parse(Fixtures.text("ed25519-node-test-only-private.pem"));

        assertThat(RequestSigner.sign(key, FixtureRequest.canonical())).isEqualTo(NODE_SIGNATURE);
    }

    @Test
    void nodePrivateKeyParsesInCompactForm() {
        String compact =
                Fixtures.text("ed25519-node-test-only-private.compact.txt").strip();
        SigningKey key = SigningKey.parse(compact);

        assertThat(compact).startsWith("Ed25519:");
        assertThat(key.algorithm()).isEqualTo(KeyAlgorithm.ED25519);
        assertThat(key.verificationKey()).isEqualTo(PUBLIC_KEY);
        assertThat(RequestSigner.sign(key, FixtureRequest.canonical())).isEqualTo(NODE_SIGNATURE);
    }
}
