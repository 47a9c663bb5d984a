package dev.cryptopay.chainwatcher.keeper;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigInteger;
import org.junit.jupiter.api.Test;

/** What a transaction offers now, and what its replacement offers: 12.5 % more at least, rounded up. */
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

    private static BigInteger gwei(long amount) {
        return BigInteger.valueOf(amount).multiply(BigInteger.valueOf(1_000_000_000));
    }
}
