package dev.cryptopay.checkoutui;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpHeaders;
import org.springframework.http.ResponseEntity;

class StaticAssetTest {

    @Test
    void aBundleJoinsTheSharedScriptsInOrderUnderOneVersion() {
        StaticAsset bundle =
                StaticAsset.load(StaticAsset.JAVASCRIPT, StaticAsset.WALLET_SCRIPT, StaticAsset.LIVE_SCRIPT);
        String text = new String(bundle.bytes(), StandardCharsets.UTF_8);

        assertThat(text.indexOf("const cryptopayWallet")).isNotNegative();
        assertThat(text.indexOf("const cryptopayLive")).isGreaterThan(text.indexOf("const cryptopayWallet"));
        assertThat(text)
                .contains("eip6963:requestProvider", "wallet_switchEthereumChain", "eth_getTransactionReceipt")
                .contains("EventSource");
        assertThat(bundle.version()).matches("[0-9a-f]{16}");
        assertThat(bundle.link("assets/x.js")).isEqualTo("assets/x.js?v=" + bundle.version());
        assertThat(StaticAsset.load(StaticAsset.JAVASCRIPT, StaticAsset.WALLET_SCRIPT)
                        .version())
                .as("another content, another version")
                .isNotEqualTo(bundle.version());
    }

    @Test
    void isServedWithItsTypeAndAYearLongImmutableLifetime() {
        ResponseEntity<byte[]> response =
                StaticAsset.load(StaticAsset.CSS, StaticAsset.STYLESHEET).response();
        assertThat(response.getHeaders().getContentType()).hasToString("text/css;charset=utf-8");
        assertThat(response.getHeaders().getFirst(HttpHeaders.CACHE_CONTROL))
                .isEqualTo("max-age=31536000, public, immutable");
        assertThat(new String(response.getBody(), StandardCharsets.UTF_8))
                .contains(":focus-visible")
                .contains("overflow-wrap: anywhere");
    }

    @Test
    void aMissingResourceFailsAtStartup() {
        assertThatThrownBy(() -> StaticAsset.load(StaticAsset.CSS, "checkout-ui/missing.css"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("checkout-ui/missing.css");
    }
}
