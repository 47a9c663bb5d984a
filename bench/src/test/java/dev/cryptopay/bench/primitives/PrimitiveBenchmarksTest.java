package dev.cryptopay.bench.primitives;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cryptopay.auth.internal.InternalTokenOutcome;
import dev.cryptopay.auth.signature.VerificationOutcome;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Each benchmark, called once, does the work it claims to measure: a benchmark that measured a refusal or an
 * exception path would report a flattering number for the wrong thing.
 */
class PrimitiveBenchmarksTest {

    @ParameterizedTest
    @ValueSource(strings = {"ED25519", "RSA_PSS_2048"})
    void signaturesVerify(String keyKind) {
        SignatureBenchmarks benchmarks = new SignatureBenchmarks();
        benchmarks.keyKind = keyKind;
        benchmarks.setUp();

        assertThat(benchmarks.verify()).isTrue();
        assertThat(benchmarks.verifyRequest()).isEqualTo(VerificationOutcome.OK);
    }

    @Test
    void theCanonicalRequestIsBuilt() {
        assertThat(new String(new CanonicalRequestBenchmarks().canonicalRequest(), StandardCharsets.UTF_8))
                .startsWith("POST/payment_links" + SignatureBenchmarks.TIMESTAMP + "{");
    }

    @ParameterizedTest
    @ValueSource(ints = {1024, 65536})
    void webhookBodiesAreSigned(int size) {
        HmacBenchmarks benchmarks = new HmacBenchmarks();
        benchmarks.bodyBytes = size;
        benchmarks.setUp();

        assertThat(benchmarks.sign()).matches("[0-9a-f]{64}");
        assertThat(benchmarks.signTimestamped()).isNotEqualTo(benchmarks.sign());
    }

    @Test
    void internalTokensAreIssuedAndAccepted() {
        InternalTokenBenchmarks benchmarks = new InternalTokenBenchmarks();
        benchmarks.setUp();

        assertThat(benchmarks.issue()).isNotBlank();
        assertThat(benchmarks.verify().outcome()).isEqualTo(InternalTokenOutcome.VALID);
    }

    @Test
    void theFullCreateBodyIsAccepted() {
        CreateBodyBenchmarks benchmarks = new CreateBodyBenchmarks();
        benchmarks.setUp();

        assertThat(benchmarks.parseAndValidate().amount()).isEqualByComparingTo(new BigDecimal("59.80"));
    }

    @Test
    void thePlanDigestIsComputed() {
        assertThat(new Eip712Benchmarks().planDigest()).matches("0x[0-9a-f]{64}");
    }

    @ParameterizedTest
    @ValueSource(strings = {"local", "redis"})
    void rateLimitCallsConsume(String store) {
        RateLimitBenchmarks benchmarks = new RateLimitBenchmarks();
        benchmarks.store = store;
        benchmarks.setUp();
        try {
            assertThat(benchmarks.consume().allowed()).isTrue();
            assertThat(benchmarks.consume().remaining()).isLessThan(Integer.MAX_VALUE - 1L);
        } finally {
            benchmarks.tearDown();
        }
    }
}
