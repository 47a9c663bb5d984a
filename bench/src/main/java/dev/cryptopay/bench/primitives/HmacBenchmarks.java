package dev.cryptopay.bench.primitives;

import dev.cryptopay.auth.webhook.WebhookSignature;
import java.util.Random;
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

/** Signing a webhook body (HMAC-SHA256, hex) as webhook-service does for every attempt, plain and timestamped. */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class HmacBenchmarks {

    static final String SECRET = "whsec_5Yq0Vb8wXx2rT1s9dLmN4pQ7kJ3hG6fE";

    @Param({"1024", "65536"})
    public int bodyBytes;

    byte[] body;

    @Setup
    public void setUp() {
        body = new byte[bodyBytes];
        new Random(1).nextBytes(body);
    }

    @Benchmark
    public String sign() {
        return WebhookSignature.sign(SECRET, body);
    }

    @Benchmark
    public String signTimestamped() {
        return WebhookSignature.signTimestamped(SECRET, 1_795_000_000L, body);
    }
}
