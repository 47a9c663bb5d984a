package dev.cryptopay.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cryptopay.deploy.DevPay.PaymentUri;
import java.math.BigInteger;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class PaymentUriTest {

    private static final String USDC = "0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512";
    private static final String DEPOSIT = "0x90F79bf6EB2c4f870365E785982E1f101E93b906";

    @Test
    void aTokenTransferAsPaymentLinksServiceWritesIt() {
        PaymentUri uri =
                PaymentUri.parse("ethereum:" + USDC + "@31337/transfer?address=" + DEPOSIT + "&uint256=10500000");

        assertThat(uri.token()).contains(USDC);
        assertThat(uri.recipient()).isEqualTo(DEPOSIT);
        assertThat(uri.amount()).isEqualTo(BigInteger.valueOf(10_500_000));
        assertThat(uri.chainId()).isEqualTo(OptionalLong.of(31337));
    }

    @Test
    void aNativePaymentAsPaymentLinksServiceWritesIt() {
        PaymentUri uri = PaymentUri.parse("ethereum:" + DEPOSIT + "@31337?value=250000000000000000");

        assertThat(uri.token()).isEmpty();
        assertThat(uri.recipient()).isEqualTo(DEPOSIT);
        assertThat(uri.amount()).isEqualTo(new BigInteger("250000000000000000"));
        assertThat(uri.chainId()).hasValue(31337);
    }

    @Test
    void whatEip681AlsoAllowsIsRead() {
        PaymentUri noChain = PaymentUri.parse("ethereum:pay-" + DEPOSIT + "?value=2.014e18");
        assertThat(noChain.chainId()).isEmpty();
        assertThat(noChain.amount()).isEqualTo(new BigInteger("2014000000000000000"));

        PaymentUri lowerCase = PaymentUri.parse(
                "  ethereum:" + USDC.toLowerCase() + "/transfer?uint256=1e6&address=" + DEPOSIT.toLowerCase() + "\n");
        assertThat(lowerCase.token()).as("checksummed").isEqualTo(Optional.of(USDC));
        assertThat(lowerCase.recipient()).isEqualTo(DEPOSIT);
        assertThat(lowerCase.amount()).isEqualTo(BigInteger.valueOf(1_000_000));
    }

    @Test
    void somethingElseIsRefusedWithTheReason() {
        assertThatThrownBy(() -> PaymentUri.parse("bitcoin:1BoatSLRHtKNngkdXEeobR76b53LETtpyT?amount=1"))
                .hasMessageStartingWith("not an EIP-681 payment URI");
        assertThatThrownBy(() -> PaymentUri.parse("ethereum:shop.eth@1?value=1"))
                .hasMessageContaining("ENS names are not resolved here");
        assertThatThrownBy(
                        () -> PaymentUri.parse("ethereum:" + USDC + "@31337/approve?address=" + DEPOSIT + "&uint256=1"))
                .hasMessageContaining("not /approve");
        assertThatThrownBy(() -> PaymentUri.parse("ethereum:" + USDC + "@31337/transfer?uint256=1"))
                .hasMessageContaining("address=<0x…>");
        assertThatThrownBy(() -> PaymentUri.parse("ethereum:" + DEPOSIT + "@31337"))
                .hasMessage("the amount is missing: value=<base units>");
        assertThatThrownBy(() -> PaymentUri.parse("ethereum:" + DEPOSIT + "@31337?value=0"))
                .hasMessageContaining("must be more than 0");
        assertThatThrownBy(() -> PaymentUri.parse("ethereum:" + DEPOSIT + "@31337?value=1.5"))
                .hasMessageContaining("not a whole number");
        assertThatThrownBy(() -> PaymentUri.parse("ethereum:" + DEPOSIT + "@31337?value=-5"))
                .hasMessageContaining("must be a number");
        assertThatThrownBy(() -> PaymentUri.parse("ethereum:" + DEPOSIT + "@31337?value=1e1000000"))
                .hasMessageContaining("does not fit 256 bits");
        assertThatThrownBy(() -> PaymentUri.parse("ethereum:" + DEPOSIT + "?value=1&value=2"))
                .hasMessage("the parameter value appears twice");
    }

    @Test
    void aMistypedChecksumIsCaught() {
        String typo = DEPOSIT.replace("F79", "f79");

        assertThatThrownBy(() -> PaymentUri.parse("ethereum:" + typo + "@31337?value=1"))
                .hasMessageContaining("wrong EIP-55 checksum");
    }
}
