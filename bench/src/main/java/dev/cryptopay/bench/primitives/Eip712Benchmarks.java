package dev.cryptopay.bench.primitives;

import dev.cryptopay.subscriptions.plan.PlanTerms;
import dev.cryptopay.subscriptions.plan.PlanTypedData;
import java.math.BigInteger;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/** The EIP-712 digest of a subscription plan, computed when a plan is created and when a customer enrols. */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class Eip712Benchmarks {

    /** An amount plan: 10 USDC (6 decimals) every 30 days, 7-day trial. */
    static final PlanTerms PLAN = new PlanTerms(
            "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266",
            "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC",
            "0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512",
            new BigInteger("10000000"),
            "",
            "",
            2_592_000,
            604_800,
            259_200,
            3,
            86_400,
            0);

    @Benchmark
    public String planDigest() {
        return PlanTypedData.of(PLAN, 31337, "0x5FbDB2315678afecb367f032d93F642f64180aa3")
                .digest();
    }
}
