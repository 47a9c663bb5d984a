package dev.cryptopay.chainwatcher.scan;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cryptopay.chainwatcher.config.ChainWatcherProperties.Network;
import dev.cryptopay.chainwatcher.config.ChainWatcherProperties.Token;
import dev.cryptopay.chainwatcher.config.TestNetworks;
import dev.cryptopay.testsupport.chain.DevPriceFeeds;
import dev.cryptopay.testsupport.chain.DevTokens;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * USD values at confirmation, from the dev chain's price feeds: a confirmed incoming transfer's report carries
 * {@code fiat_amount} (amount × the feed's price, one dollar a unit for a stablecoin), and none when the value is
 * unknown (no feed, a stale feed). The pending report never carries one.
 */
class UsdValuesTest extends ScannerTestBase {

    @Test
    void aConfirmedPaymentCarriesItsUsdValueAtTheFeedsPriceAndAStablecoinOneDollarAUnit() {
        String wethDeposit = freshAddress();
        String usdcDeposit = freshAddress();
        UUID wethLink = announce(wethDeposit, DevTokens.WETH.address(), 18, "500000000000000000", inAnHour());
        UUID usdcLink = announce(usdcDeposit, DevTokens.USDC.address(), 6, "7500000", inAnHour());
        scan();
        CHAIN.setUsdPrice(DevPriceFeeds.ETH_USD, new BigDecimal("2512.5"));
        try {
            CHAIN.mint(DevTokens.WETH, wethDeposit, units("0.5", 18));
            CHAIN.mint(DevTokens.USDC, usdcDeposit, units("7.5", 6));
            scan();
            CHAIN.mine(3);
            scan();
        } finally {
            CHAIN.setUsdPrice(DevPriceFeeds.ETH_USD, DevPriceFeeds.ETH_USD.initialPrice());
        }

        assertThat(reports(wethLink))
                .extracting(UsdValuesTest::statusAndFiat)
                .containsExactly("pending -", "confirmed 1256.25");
        assertThat(reports(usdcLink))
                .extracting(UsdValuesTest::statusAndFiat)
                .containsExactly("pending -", "confirmed 7.5");
        assertThat(transfers.ofLink(wethLink).blockFirst().usdSource()).isEqualTo("price_feed");
        assertThat(transfers.ofLink(usdcLink).blockFirst().usdSource()).isEqualTo("stablecoin");
    }

    @Test
    void aStaleFeedOrATokenWithoutAFeedGivesNoUsdValue() {
        String wethDeposit = freshAddress();
        String linkDeposit = freshAddress();
        String usdcDeposit = freshAddress();
        UUID wethLink = announce(wethDeposit, DevTokens.WETH.address(), 18, "1000000000000000000", inAnHour());
        UUID linkLink = announce(linkDeposit, DevTokens.LINK.address(), 18, "1000000000000000000", inAnHour());
        UUID usdcLink = announce(usdcDeposit, DevTokens.USDC.address(), 6, "1000000", inAnHour());
        Network dev = properties.networks().get(0);
        // A max age of an hour, and LINK without its feed.
        List<Token> tokens = dev.tokens().stream()
                .map(token -> token.symbol().equals("LINK")
                        ? new Token(token.address(), token.decimals(), token.symbol(), null, false)
                        : token)
                .toList();
        Network network = TestNetworks.of(dev)
                .withTokens(tokens)
                .withoutKeeperKey()
                .withPriceMaxAge(Duration.ofHours(1))
                .applyTo(dev);

        scan(); // the application's scanner is at the head, so the test's scanner starts there
        withScanner(network, "test-usd", scanner -> {
            CHAIN.setUsdPrice(DevPriceFeeds.ETH_USD, DevPriceFeeds.ETH_USD.initialPrice()); // fresh now
            CHAIN.increaseTime(Duration.ofHours(2).toSeconds()); // and stale two hours later
            CHAIN.mint(DevTokens.WETH, wethDeposit, units("1", 18));
            CHAIN.mint(DevTokens.LINK, linkDeposit, units("1", 18));
            CHAIN.mint(DevTokens.USDC, usdcDeposit, units("1", 6));
            CHAIN.mine(3);
            catchUp(scanner);
        });

        assertThat(reports(wethLink))
                .extracting(UsdValuesTest::statusAndFiat)
                .containsExactly("pending -", "confirmed -");
        assertThat(reports(linkLink))
                .extracting(UsdValuesTest::statusAndFiat)
                .containsExactly("pending -", "confirmed -");
        assertThat(reports(usdcLink))
                .as("a stablecoin without a feed needs none")
                .extracting(UsdValuesTest::statusAndFiat)
                .containsExactly("pending -", "confirmed 1");
        assertThat(transfers.ofLink(wethLink).blockFirst().usdSource()).isEqualTo("unknown");
    }

    /** "status fiat_amount", "-" when the report has none. */
    private static String statusAndFiat(JsonNode report) {
        JsonNode fiat = report.get("fiat_amount");
        return report.get("status").asString() + " "
                + (fiat == null || fiat.isNull()
                        ? "-"
                        : fiat.decimalValue().stripTrailingZeros().toPlainString());
    }

    private static void catchUp(ChainScanner scanner) {
        for (int passes = 0; passes < 100; passes++) {
            if (Boolean.TRUE.equals(scanner.pass().block())) {
                return;
            }
        }
        throw new AssertionError("the scanner did not reach the head in 100 passes");
    }

    private static Instant inAnHour() {
        return Instant.now().plusSeconds(3600);
    }
}
