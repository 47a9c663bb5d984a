package dev.cryptopay.bench.primitives;

import dev.cryptopay.auth.signature.CanonicalRequest;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Warmup;

/** Building the bytes a merchant signs for a 200-byte create (no key involved, so not a signature parameter). */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class CanonicalRequestBenchmarks {

    @Benchmark
    public byte[] canonicalRequest() {
        return new CanonicalRequest("POST", "/payment_links", SignatureBenchmarks.TIMESTAMP, SignatureBenchmarks.BODY)
                .toBytes();
    }
}
