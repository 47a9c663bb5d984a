package dev.cryptopay.subscriptions.plan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cryptopay.service.error.ApiException;
import dev.cryptopay.subscriptions.network.Token;
import java.math.BigInteger;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * A value plan's text is read by the contract's rule ({@code _units}): what the service accepts is what the contract
 * bills, and what the contract would refuse the service refuses first.
 */
class ValueTextTest {

    private static final Token USDC = token("USDC", 6);
    private static final Token WETH = token("WETH", 18);

    @Test
    void billsWhatTheContractBills() {
        assertThat(ResolvedPlan.billedByValue("9.99", USDC)).isEqualTo(new BigInteger("9990000"));
        assertThat(ResolvedPlan.billedByValue("010.5", USDC))
                .as("leading zeros are digits like any other")
                .isEqualTo(new BigInteger("10500000"));
        assertThat(ResolvedPlan.billedByValue("010.500000", USDC)).isEqualTo(new BigInteger("10500000"));
        assertThat(ResolvedPlan.billedByValue("1.000000000000000001", WETH))
                .isEqualTo(new BigInteger("1000000000000000001"));
    }

    @Test
    void refusesWhatTheContractRefuses() {
        assertThatThrownBy(() -> ResolvedPlan.billedByValue("010.500000000", USDC))
                .isInstanceOf(ApiException.class)
                .hasMessageContaining("has (6): 9 written");
        assertThatThrownBy(() -> ResolvedPlan.billedByValue("1." + "0".repeat(77), WETH))
                .isInstanceOf(ApiException.class)
                .hasMessageContaining("decimal places");
        assertThatThrownBy(() -> ResolvedPlan.billedByValue("1".repeat(79), USDC))
                .isInstanceOf(ApiException.class)
                .hasMessageContaining("longer than 78 characters");
        assertThatThrownBy(() -> ResolvedPlan.billedByValue("9".repeat(60), WETH))
                .as("10^78 base units: past a uint256")
                .isInstanceOf(ApiException.class)
                .hasMessageContaining("uint256");
    }

    private static Token token(String code, int decimals) {
        return new Token(
                UUID.randomUUID(), UUID.randomUUID(), UUID.randomUUID(), code, "0x" + "1".repeat(40), decimals);
    }
}
