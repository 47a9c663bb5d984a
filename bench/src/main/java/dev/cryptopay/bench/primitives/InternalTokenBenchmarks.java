package dev.cryptopay.bench.primitives;

import dev.cryptopay.auth.Mode;
import dev.cryptopay.auth.internal.InternalCallers;
import dev.cryptopay.auth.internal.InternalRequest;
import dev.cryptopay.auth.internal.InternalTokenSigner;
import dev.cryptopay.auth.internal.InternalTokenVerification;
import dev.cryptopay.auth.internal.InternalTokenVerifier;
import dev.cryptopay.auth.internal.MerchantCredential;
import dev.cryptopay.auth.internal.MerchantIdentity;
import dev.cryptopay.auth.keys.Ed25519KeyPairs;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The gateway → service token: signed (Ed25519) by the gateway for every forwarded request, verified by the service
 * with the gateway's public key. The request's body hash is part of both and measured with them.
 */
@State(Scope.Benchmark)
@BenchmarkMode(org.openjdk.jmh.annotations.Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class InternalTokenBenchmarks {

    static final Instant NOW = Instant.ofEpochSecond(1_795_000_000L);

    InternalTokenSigner gateway;
    InternalTokenVerifier verifier;
    MerchantIdentity merchant;
    String token;

    @Setup
    public void setUp() {
        gateway = InternalTokenSigner.parse(
                InternalCallers.GATEWAY,
                Ed25519KeyPairs.generate(new SecureRandom()).privateKeyCompact());
        verifier = new InternalTokenVerifier(
                InternalCallers.PAYMENT_LINKS_SERVICE,
                Map.of(InternalCallers.GATEWAY, List.of(gateway.verificationKey())));
        merchant = new MerchantIdentity(UUID.fromString("6f1c2b1e-7d4a-4a8e-9a57-0c1f8e5d2b3a"), Mode.TEST);
        token = issue();
    }

    @Benchmark
    public String issue() {
        return gateway.issue(
                InternalCallers.PAYMENT_LINKS_SERVICE, merchant, MerchantCredential.API_KEY, request(), NOW);
    }

    @Benchmark
    public InternalTokenVerification verify() {
        return verifier.verify(
                token, merchant, MerchantCredential.API_KEY, request(), NOW, InternalTokenSigner.DEFAULT_MAX_AGE);
    }

    private static InternalRequest request() {
        return InternalRequest.of("POST", "/payment_links", null, SignatureBenchmarks.BODY);
    }
}
