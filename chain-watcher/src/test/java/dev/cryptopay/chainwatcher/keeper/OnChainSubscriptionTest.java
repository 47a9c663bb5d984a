package dev.cryptopay.chainwatcher.keeper;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigInteger;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** The keeper's decisions on getSubscription's answer, by chain time. */
class OnChainSubscriptionTest {

    private static final Instant DUE = Instant.parse("2027-01-01T00:00:00Z");
    private static final Duration GRACE = Duration.ofMinutes(10);
    private static final Duration RETRY = Duration.ofSeconds(60);

    @Test
    void dueFromNextDueOnAndACollectRecordsTheMissOnlyAfterTheGrace() {
        OnChainSubscription subscription = new OnChainSubscription(DUE, GRACE, null, 0, 1, true);
        assertThat(subscription.due(DUE.minusSeconds(1))).isFalse();
        assertThat(subscription.due(DUE)).isTrue();
        assertThat(subscription.collectChangesItAnyway(DUE.plus(GRACE)))
                .as("the last second of the grace")
                .isFalse();
        assertThat(subscription.collectChangesItAnyway(DUE.plus(GRACE).plusSeconds(1)))
                .isTrue();
    }

    @Test
    void aRefusedPullIsTriedAgainAfterTheRetryIntervalButAtTheLatestJustAfterTheGrace() {
        OnChainSubscription subscription = new OnChainSubscription(DUE, GRACE, null, 0, 1, true);
        assertThat(subscription.retryAt(DUE, RETRY)).isEqualTo(DUE.plus(RETRY));
        assertThat(subscription.retryAt(DUE.plus(GRACE).minusSeconds(30), RETRY))
                .isEqualTo(DUE.plus(GRACE).plusSeconds(1));
    }

    @Test
    void aSubscriptionWhoseEndIsReachedIsCollectedToEndIt() {
        assertThat(new OnChainSubscription(DUE, GRACE, DUE, 0, 3, true).collectChangesItAnyway(DUE))
                .isTrue();
        assertThat(new OnChainSubscription(DUE, GRACE, DUE.plusSeconds(1), 0, 3, true).collectChangesItAnyway(DUE))
                .isFalse();
    }

    @Test
    void decodesTheStructAndReadsTimesBeyondYear9999AsThatYear() {
        BigInteger[] words = new BigInteger[14];
        java.util.Arrays.fill(words, BigInteger.ZERO);
        words[7] = BigInteger.valueOf(600); // grace
        words[9] = BigInteger.valueOf(2); // missedInRow
        words[10] = BigInteger.TWO.pow(64).subtract(BigInteger.ONE); // nextDue: a trial of any uint64
        words[12] = BigInteger.valueOf(5); // paidPeriods
        words[13] = BigInteger.ONE; // active
        StringBuilder hex = new StringBuilder("0x");
        for (BigInteger word : words) {
            hex.append(String.format("%064x", word));
        }

        OnChainSubscription decoded = OnChainSubscription.decode(hex.toString());

        assertThat(decoded)
                .isEqualTo(new OnChainSubscription(
                        Instant.parse("9999-12-31T23:59:59Z"), Duration.ofMinutes(10), null, 2, 5, true));
        assertThat(OnChainSubscription.charged("0x" + "0".repeat(63) + "1")).isTrue();
        assertThat(OnChainSubscription.charged("0x" + "0".repeat(64))).isFalse();
    }
}
