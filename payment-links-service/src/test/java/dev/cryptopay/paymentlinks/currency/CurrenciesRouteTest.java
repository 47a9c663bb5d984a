package dev.cryptopay.paymentlinks.currency;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cryptopay.auth.Mode;
import dev.cryptopay.paymentlinks.PaymentLinksTestBase;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;

class CurrenciesRouteTest extends PaymentLinksTestBase {

    @Autowired
    CurrencyCatalog catalog;

    @Test
    void listsTheEightSupportedCodesOncePerCodeWithStableIds() {
        JsonNode response = read(
                get(newMerchant(), "/payment_links/currencies").expectStatus().isOk());

        assertThat(response.get("message").asString()).isEqualTo("Currencies retrieved successfully");
        Map<String, String> names = new LinkedHashMap<>();
        Map<String, String> ids = new LinkedHashMap<>();
        response.get("data").forEach(currency -> {
            names.put(currency.get("code").asString(), currency.get("name").asString());
            ids.put(currency.get("code").asString(), currency.get("id").asString());
            assertThat(currency.propertyNames()).containsExactly("id", "code", "name");
        });
        assertThat(names)
                .containsExactly(
                        Map.entry("AVAX", "Avalanche"),
                        Map.entry("BNB", "BNB"),
                        Map.entry("ETH", "Ethereum"),
                        Map.entry("LINK", "ChainLink"),
                        Map.entry("USDC", "USD Coin"),
                        Map.entry("USDT", "Tether USD"),
                        Map.entry("WBTC", "Wrapped BTC"),
                        Map.entry("WETH", "Wrapped Ethereum"));
        // Ids are fixed by the migration, so clients may store them.
        assertThat(ids.get("USDC")).isEqualTo("8869f514-71db-5d4f-9dda-b9126cb24da7");
        assertThat(ids.get("ETH")).isEqualTo("e36b4fed-a45c-546a-919b-02a71cf1091e");
    }

    @Test
    void keepsTheNetworksOfEachCurrencyAsReferenceData() {
        Map<String, Integer> networks = new LinkedHashMap<>();
        catalog.all()
                .block()
                .forEach(currency ->
                        networks.put(currency.code(), currency.networks().size()));

        assertThat(networks)
                .containsExactly(
                        Map.entry("AVAX", 2),
                        Map.entry("BNB", 3),
                        Map.entry("ETH", 5),
                        Map.entry("LINK", 6),
                        Map.entry("USDC", 7),
                        Map.entry("USDT", 7),
                        Map.entry("WBTC", 5),
                        Map.entry("WETH", 6));
        assertThat(catalog.find("USDC").block().orElseThrow().defaultNetwork())
                .isEqualTo(new PaymentNetwork("Ethereum", 1, "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48", 6));
        assertThat(catalog.find("BTC").block()).isEmpty();
    }

    @Test
    void paysLiveModeOnTheCurrencysNetworkAndTestModeOnTheDevChain() {
        Currency eth = catalog.find("ETH").block().orElseThrow();
        Currency wbtc = catalog.find("WBTC").block().orElseThrow();

        assertThat(catalog.networkFor(Mode.LIVE, eth)).contains(new PaymentNetwork("Ethereum", 1, null, 18));
        assertThat(catalog.networkFor(Mode.LIVE, wbtc).orElseThrow().decimals()).isEqualTo(8);
        assertThat(catalog.networkFor(Mode.TEST, eth)).contains(new PaymentNetwork("Local dev chain", 31337, null, 18));
        assertThat(catalog.networkFor(Mode.TEST, wbtc))
                .contains(
                        new PaymentNetwork("Local dev chain", 31337, "0x5FC8d32690cc91D4c39d9d3abcBD16989F875707", 8));
        // Every currency's preferred live network can be paid.
        assertThat(catalog.all().block())
                .allSatisfy(currency ->
                        assertThat(currency.defaultNetwork().payable()).isTrue());
    }
}
