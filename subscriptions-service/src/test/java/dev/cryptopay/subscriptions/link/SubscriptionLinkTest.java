package dev.cryptopay.subscriptions.link;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cryptopay.auth.Mode;
import java.math.BigInteger;
import java.time.Instant;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** A link's billing arithmetic, without Spring or a database. */
class SubscriptionLinkTest {

    private static final Instant START = Instant.parse("2026-01-01T00:00:00Z");
    private static final BigInteger PERIOD = BigInteger.valueOf(10_000_000);
    private static final long MONTH = 2_592_000;

    @Test
    void aMissAddsOnePeriodOfDebtAndMovesToTheNextPeriod() {
        SubscriptionLink missed = link().missed(PERIOD, MONTH, START.plusSeconds(10));
        assertThat(missed.owed()).isEqualTo(PERIOD);
        assertThat(missed.missedPeriods()).isEqualTo(1);
        assertThat(missed.periodDueAt()).isEqualTo(START.plusSeconds(MONTH));
        assertThat(missed.paidPeriods()).isZero();
        assertThat(missed.missed(PERIOD, MONTH, START).owed()).isEqualTo(PERIOD.multiply(BigInteger.TWO));
    }

    @Test
    void debtStopsAtTheLargestUint256() {
        BigInteger largest = SubscriptionLink.MAX_OWED;
        SubscriptionLink owing = link().missed(largest, MONTH, START).missed(largest, MONTH, START);
        assertThat(owing.owed()).isEqualTo(largest);
        assertThat(owing.missedPeriods()).isEqualTo(2);
        assertThat(owing.periodDueAt()).isEqualTo(START.plusSeconds(2 * MONTH));
    }

    @Test
    void aPaymentResetsTheMissesAndItsSurplusPaysDebtButNeverBelowZero() {
        SubscriptionLink owing = link().missed(PERIOD, MONTH, START).missed(PERIOD, MONTH, START);
        Instant next = START.plusSeconds(3 * MONTH);
        SubscriptionLink paid = owing.paid(PERIOD, PERIOD.multiply(BigInteger.TWO), next, START);
        assertThat(paid.owed()).isEqualTo(PERIOD);
        assertThat(paid.missedPeriods()).isZero();
        assertThat(paid.paidPeriods()).isEqualTo(1);
        assertThat(paid.periodDueAt()).isEqualTo(next);
        assertThat(owing.paid(PERIOD, PERIOD.multiply(BigInteger.TEN), next, START)
                        .owed())
                .isZero();
    }

    @Test
    void aRestartBillsFromNowAndForgetsTheMisses() {
        SubscriptionLink stopped =
                link().missed(PERIOD, MONTH, START).missed(PERIOD, MONTH, START).deactivated(START);
        Instant later = START.plusSeconds(10 * MONTH);
        SubscriptionLink restarted = stopped.restarted(later);
        assertThat(restarted.active()).isTrue();
        assertThat(restarted.periodDueAt()).isEqualTo(later);
        assertThat(restarted.missedPeriods()).isZero();
        assertThat(restarted.owed()).as("debt stays").isEqualTo(PERIOD.multiply(BigInteger.TWO));
    }

    @Test
    void changesKeepWhatIsNotNamed() {
        SubscriptionLink link = link();
        SubscriptionLink locked = link.changed(null, null, null, true, null, START.plusSeconds(5));
        assertThat(locked.locked()).isTrue();
        assertThat(locked.active()).isTrue();
        assertThat(locked.owed()).isZero();
        assertThat(locked.updatedAt()).isEqualTo(START.plusSeconds(5));
        assertThat(link.deactivated(START).active()).isFalse();
        assertThat(link.firstPeriodAt(START.plusSeconds(99)).periodDueAt()).isEqualTo(START.plusSeconds(99));
    }

    private static SubscriptionLink link() {
        return new SubscriptionLink(
                UUID.randomUUID(),
                UUID.randomUUID(),
                Mode.TEST,
                UUID.randomUUID(),
                UUID.randomUUID(),
                "0x90F79bf6EB2c4f870365E785982E1f101E93b906",
                "0x" + "ab".repeat(32),
                null,
                "[]",
                BigInteger.ZERO,
                0,
                false,
                START,
                null,
                null,
                true,
                START,
                0,
                START,
                START);
    }
}
