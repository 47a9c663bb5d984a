package dev.cryptopay.testsupport.chain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.web3j.abi.TypeReference;
import org.web3j.abi.datatypes.Function;
import org.web3j.abi.datatypes.Type;
import org.web3j.abi.datatypes.Utf8String;
import org.web3j.abi.datatypes.generated.Int256;
import org.web3j.abi.datatypes.generated.Uint256;
import org.web3j.abi.datatypes.generated.Uint8;
import org.web3j.abi.datatypes.generated.Uint80;
import org.web3j.crypto.ContractUtils;
import org.web3j.crypto.Keys;

/** The dev chain's USD price feeds on a real anvil, read through Chainlink's AggregatorV3Interface functions. */
class DevPriceFeedsTest {

    private static final DevChain CHAIN = DevChain.shared();

    @Test
    void everyFeedIsDeployedByItsOwnerAtItsFixedAddressWithEightDecimalsAndItsInitialPrice() {
        for (DevPriceFeeds feed : DevPriceFeeds.values()) {
            String derived = Keys.toChecksumAddress(ContractUtils.generateContractAddress(
                    DevPriceFeeds.OWNER, BigInteger.valueOf(feed.deploymentNonce())));
            assertThat(feed.address()).as(feed + " address").isEqualTo(derived);
            assertThat(CHAIN.call(feed.address(), view("decimals", new TypeReference<Uint8>() {}))
                            .get(0)
                            .getValue())
                    .isEqualTo(BigInteger.valueOf(DevPriceFeeds.DECIMALS));
            assertThat(CHAIN.call(feed.address(), view("description", new TypeReference<Utf8String>() {}))
                            .get(0)
                            .getValue())
                    .isEqualTo(feed.description());
        }
        assertThat(CHAIN.accounts().get(9)).isEqualTo(DevPriceFeeds.OWNER);
        assertThat(DevPriceFeeds.ETH_USD.initialAnswer()).isEqualTo(new BigInteger("300000000000"));
    }

    @Test
    void theOwnerSetsAPriceAsANewRoundStampedWithTheBlockTime() {
        DevPriceFeeds feed = DevPriceFeeds.LINK_USD;
        List<Type> before = latestRoundData(feed);
        try {
            CHAIN.setUsdPrice(feed, new BigDecimal("17.25"));
            List<Type> after = latestRoundData(feed);
            assertThat((BigInteger) after.get(0).getValue())
                    .isEqualTo(((BigInteger) before.get(0).getValue()).add(BigInteger.ONE));
            assertThat(after.get(1).getValue()).isEqualTo(new BigInteger("1725000000"));
            BigInteger updatedAt = (BigInteger) after.get(3).getValue();
            assertThat(updatedAt.longValueExact())
                    .isEqualTo(CHAIN.web3j()
                            .ethGetBlockByNumber(org.web3j.protocol.core.DefaultBlockParameterName.LATEST, false)
                            .sendAsync()
                            .join()
                            .getBlock()
                            .getTimestamp()
                            .longValueExact());
            assertThat(after.get(4).getValue()).isEqualTo(after.get(0).getValue());
        } finally {
            CHAIN.setUsdPrice(feed, feed.initialPrice());
        }
        assertThat(latestRoundData(feed).get(1).getValue()).isEqualTo(feed.initialAnswer());
    }

    @Test
    void noOneButTheOwnerSetsAPrice() {
        Function setAnswer = new Function("setAnswer", List.of(new Int256(BigInteger.ONE)), List.of());
        assertThatThrownBy(() -> CHAIN.send(CHAIN.accounts().get(1), DevPriceFeeds.BTC_USD.address(), setAnswer))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("only the owner sets prices");
        assertThat(latestRoundData(DevPriceFeeds.BTC_USD).get(1).getValue())
                .isEqualTo(DevPriceFeeds.BTC_USD.initialAnswer());
    }

    @Test
    void eachNonStableDevTokenHasItsFeedAndTheStablecoinsHaveNone() {
        assertThat(DevPriceFeeds.of(DevTokens.WETH)).contains(DevPriceFeeds.ETH_USD);
        assertThat(DevPriceFeeds.of(DevTokens.WBTC)).contains(DevPriceFeeds.BTC_USD);
        assertThat(DevPriceFeeds.of(DevTokens.LINK)).contains(DevPriceFeeds.LINK_USD);
        assertThat(DevPriceFeeds.of(DevTokens.BNB)).contains(DevPriceFeeds.BNB_USD);
        assertThat(DevPriceFeeds.of(DevTokens.AVAX)).contains(DevPriceFeeds.AVAX_USD);
        assertThat(DevPriceFeeds.of(DevTokens.USDC)).isEmpty();
        assertThat(DevPriceFeeds.of(DevTokens.USDT)).isEmpty();
    }

    private static List<Type> latestRoundData(DevPriceFeeds feed) {
        Function latest = new Function(
                "latestRoundData",
                List.of(),
                List.of(
                        new TypeReference<Uint80>() {},
                        new TypeReference<Int256>() {},
                        new TypeReference<Uint256>() {},
                        new TypeReference<Uint256>() {},
                        new TypeReference<Uint80>() {}));
        return CHAIN.call(feed.address(), latest);
    }

    private static Function view(String name, TypeReference<?> output) {
        return new Function(name, List.of(), List.of(output));
    }
}
