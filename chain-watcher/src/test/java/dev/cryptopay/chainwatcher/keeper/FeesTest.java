package dev.cryptopay.chainwatcher.keeper;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigInteger;
import org.junit.jupiter.api.Test;

/**
 * What a transaction offers now, and what its replacement offers: 12.5 % more at least, rounded up, never above the
 * network's ceiling.
 */
class FeesTest {

    @Test
    void offersTwiceTheBaseFeePlusTheTipOrTheGasPriceWithoutABaseFee() {
        assertThat(Fees.current(gwei(10), gwei(2))).isEqualTo(new Fees(gwei(22), gwei(2)));
        Fees legacy = Fees.current(null, gwei(5));
        assertThat(legacy.legacy()).isTrue();
        assertThat(legacy.maxFeePerGas()).isEqualTo(gwei(5));
    }

    @Test
    void aReplacementRaisesEachFeeBy12AndAHalfPercentRoundedUpOrOffersWhatIsCurrent() {
        Fees sent = new Fees(BigInteger.valueOf(1001), BigInteger.valueOf(9));
        assertThat(sent.raised(new Fees(BigInteger.ONE, BigInteger.ONE)))
                .as("1001 × 9/8 = 1126.1…, 9 × 9/8 = 10.1…")
                .isEqualTo(new Fees(BigInteger.valueOf(1127), BigInteger.valueOf(11)));
        assertThat(sent.raised(new Fees(gwei(50), gwei(3))))
                .as("the base fee rose meanwhile")
                .isEqualTo(new Fees(gwei(50), gwei(3)));
        assertThat(new Fees(gwei(8), null).raised(new Fees(gwei(1), null))).isEqualTo(new Fees(gwei(9), null));
    }

    @Test
    void theCeilingCapsEachFeeAndTheTipNeverExceedsTheMaxFee() {
        Fees ceiling = new Fees(gwei(30), gwei(2));
        Fees wanted = new Fees(gwei(40), gwei(3));
        assertThat(wanted.above(ceiling)).isTrue();
        assertThat(wanted.capped(ceiling)).isEqualTo(ceiling);
        assertThat(new Fees(gwei(20), gwei(3)).above(ceiling))
                .as("the tip alone")
                .isTrue();
        assertThat(new Fees(gwei(20), gwei(1)).above(ceiling)).isFalse();
        assertThat(new Fees(gwei(1), gwei(1)).capped(new Fees(gwei(30), gwei(2))))
                .isEqualTo(new Fees(gwei(1), gwei(1)));
        assertThat(new Fees(gwei(40), null).capped(ceiling)).isEqualTo(new Fees(gwei(30), null));
        assertThat(new Fees(gwei(5), gwei(4)).capped(new Fees(gwei(3), gwei(10))))
                .as("a tip above the max fee means nothing")
                .isEqualTo(new Fees(gwei(3), gwei(3)));
    }

    @Test
    void aReplacementWithinTheCeilingOrNoneWhenTheCeilingLeavesNoRoomForTheRaise() {
        Fees sent = new Fees(gwei(16), gwei(2));
        assertThat(sent.raisedWithin(new Fees(gwei(10), gwei(1)), new Fees(gwei(100), gwei(10))))
                .contains(new Fees(gwei(18), BigInteger.valueOf(2_250_000_000L)));
        assertThat(sent.raisedWithin(new Fees(gwei(40), gwei(1)), new Fees(gwei(30), gwei(10))))
                .as("the chain asks more than the ceiling: raised to the ceiling, still 12.5 % more")
                .contains(new Fees(gwei(30), BigInteger.valueOf(2_250_000_000L)));
        assertThat(sent.raisedWithin(new Fees(gwei(10), gwei(1)), new Fees(gwei(17), gwei(10))))
                .as("16 → 18 would pass a ceiling of 17: not replaced")
                .isEmpty();
        assertThat(sent.raisedWithin(new Fees(gwei(10), gwei(1)), new Fees(gwei(100), gwei(2))))
                .as("nor when the tip cannot rise")
                .isEmpty();
    }

    private static BigInteger gwei(long amount) {
        return BigInteger.valueOf(amount).multiply(BigInteger.valueOf(1_000_000_000));
    }
}
