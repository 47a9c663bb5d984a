package dev.cryptopay.bench.primitives;

import dev.cryptopay.auth.keys.Ed25519KeyPairs;
import dev.cryptopay.auth.keys.GeneratedKeyPair;
import dev.cryptopay.auth.keys.RsaKeyPairs;
import dev.cryptopay.auth.keys.SigningKey;
import dev.cryptopay.auth.keys.VerificationKey;
import dev.cryptopay.auth.signature.CanonicalRequest;
import dev.cryptopay.auth.signature.RequestSigner;
import dev.cryptopay.auth.signature.RequestVerifier;
import dev.cryptopay.auth.signature.VerificationOutcome;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Base64;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What the gateway does per signed request: build the canonical request and verify its signature, with the key kinds
 * merchants register. {@code verifyRequest} is the whole check (timestamp, Base64, canonical form, signature) as the
 * gateway's filter calls it; {@code verify} is the signature alone, the ceiling for {@code GET /account}. Building
 * the signed bytes alone is {@link CanonicalRequestBenchmarks}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class SignatureBenchmarks {

    /** A create body of the usual size, about 200 bytes. */
    static final byte[] BODY = ("{\"payment_name\":\"Annual plan\",\"amount\":49.90,\"currency\":\"USDC\","
                    + "\"description\":\"One year of the pro plan\",\"order_id\":\"order-2026-000123\","
                    + "\"customer_email\":\"ada@example.com\"}")
            .getBytes(StandardCharsets.UTF_8);

    static final String TIMESTAMP = "2026-11-22T12:00:00.000Z";

    @Param({"ED25519", "RSA_PSS_2048"})
    public String keyKind;

    VerificationKey verificationKey;
    byte[] canonical;
    byte[] signature;
    String signatureBase64;
    RequestVerifier verifier;

    @Setup
    public void setUp() {
        SecureRandom random = new SecureRandom();
        GeneratedKeyPair pair = switch (keyKind) {
            case "ED25519" -> Ed25519KeyPairs.generate(random);
            case "RSA_PSS_2048" -> RsaKeyPairs.generate(random, 2048);
            default -> throw new IllegalArgumentException(keyKind);
        };
        SigningKey signingKey = SigningKey.parse(pair.privateKeyPem());
        verificationKey = VerificationKey.parse(pair.publicKeyPem());
        CanonicalRequest request = new CanonicalRequest("POST", "/payment_links", TIMESTAMP, BODY);
        canonical = request.toBytes();
        signatureBase64 = RequestSigner.sign(signingKey, request);
        signature = Base64.getDecoder().decode(signatureBase64);
        verifier = RequestVerifier.withDefaults(Clock.fixed(Instant.parse(TIMESTAMP), ZoneOffset.UTC));
    }

    @Benchmark
    public boolean verify() {
        return verificationKey.verify(canonical, signature);
    }

    @Benchmark
    public VerificationOutcome verifyRequest() {
        return verifier.verify(verificationKey, "POST", "/payment_links", null, TIMESTAMP, signatureBase64, BODY);
    }
}
