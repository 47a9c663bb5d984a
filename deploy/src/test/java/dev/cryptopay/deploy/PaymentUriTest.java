package dev.cryptopay.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cryptopay.deploy.DevPay.PaymentUri;
import java.math.BigInteger;
import java.util.List;
import java.util.Optional;
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
        assertThat(uri.chainId()).isEqualTo(31337);
    }

    @Test
    void aNativePaymentAsPaymentLinksServiceWritesIt() {
        PaymentUri uri = PaymentUri.parse("ethereum:" + DEPOSIT + "@31337?value=250000000000000000");

        assertThat(uri.token()).isEmpty();
        assertThat(uri.recipient()).isEqualTo(DEPOSIT);
        assertThat(uri.amount()).isEqualTo(new BigInteger("250000000000000000"));
        assertThat(uri.chainId()).isEqualTo(31337);
    }

    @Test
    void surroundingSpaceAndSingleCaseAddressesAreReadAndComeOutChecksummed() {
        PaymentUri uri = PaymentUri.parse("  ethereum:" + USDC.toLowerCase() + "@31337/transfer?address="
                + DEPOSIT.toUpperCase().replace("0X", "0x") + "&uint256=1000000\n");

        assertThat(uri.token()).as("checksummed").isEqualTo(Optional.of(USDC));
        assertThat(uri.recipient()).isEqualTo(DEPOSIT);
        assertThat(uri.amount()).isEqualTo(BigInteger.valueOf(1_000_000));
    }

    @Test
    void anythingButTheTwoFormsIsRefusedWithTheReason() {
        for (String other : List.of(
                "bitcoin:1BoatSLRHtKNngkdXEeobR76b53LETtpyT?amount=1",
                "ethereum:shop.eth@1?value=1",
                "ethereum:" + USDC + "@31337/approve?address=" + DEPOSIT + "&uint256=1",
                "ethereum:" + USDC + "@31337/transfer?uint256=1",
                "ethereum:" + DEPOSIT + "?value=1",
                "ethereum:pay-" + DEPOSIT + "@31337?value=1",
                "ethereum:" + DEPOSIT + "@31337",
                "ethereum:" + DEPOSIT + "@31337?value=1.5",
                "ethereum:" + DEPOSIT + "@31337?value=-5",
                "ethereum:" + DEPOSIT + "@31337?value=2.5e18",
                "ethereum:" + DEPOSIT + "@31337?value=1&value=2")) {
            assertThatThrownBy(() -> PaymentUri.parse(other))
                    .as(other)
                    .hasMessageStartingWith("not a payment link's payment_uri (ethereum:<token>@<chain id>/transfer?");
        }
        assertThatThrownBy(() -> PaymentUri.parse("ethereum:" + DEPOSIT + "@31337?value=0"))
                .hasMessage("the amount 0 must be more than 0 and fit 256 bits");
        assertThatThrownBy(() -> PaymentUri.parse("ethereum:" + DEPOSIT + "@31337?value=" + "9".repeat(78)))
                .hasMessageEndingWith("must be more than 0 and fit 256 bits");
    }

    @Test
    void aMistypedChecksumIsCaught() {
        String typo = DEPOSIT.replace("F79", "f79");

        assertThatThrownBy(() -> PaymentUri.parse("ethereum:" + typo + "@31337?value=1"))
                .hasMessage(typo + " has a wrong EIP-55 checksum (a typo?)");
    }
}
