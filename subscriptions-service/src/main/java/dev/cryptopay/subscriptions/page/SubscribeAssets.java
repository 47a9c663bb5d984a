package dev.cryptopay.subscriptions.page;

import dev.cryptopay.checkoutui.StaticAsset;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * The subscribe page's script and stylesheet, served from memory with a year-long, immutable cache lifetime (see
 * {@link StaticAsset}). The script is one bundle: checkout-ui's wallet and live-status scripts (the payment checkout's
 * too), then this page's own {@code src/main/resources/checkout/subscribe.js}; the stylesheet is checkout-ui's. Both
 * live under {@code /checkout/subscribe/}, the path the gateway sends here.
 */
@RestController
class SubscribeAssets {

    private final StaticAsset script = StaticAsset.load(
            StaticAsset.JAVASCRIPT, StaticAsset.WALLET_SCRIPT, StaticAsset.LIVE_SCRIPT, "checkout/subscribe.js");
    private final StaticAsset stylesheet = StaticAsset.load(StaticAsset.CSS, StaticAsset.STYLESHEET);

    @GetMapping("/checkout/subscribe/assets/subscribe.js")
    ResponseEntity<byte[]> script() {
        return script.response();
    }

    @GetMapping("/checkout/subscribe/assets/checkout.css")
    ResponseEntity<byte[]> stylesheet() {
        return stylesheet.response();
    }

    /** The script's address relative to the page ({@code /checkout/subscribe}). */
    String scriptPath() {
        return script.link("subscribe/assets/subscribe.js");
    }

    String stylesheetPath() {
        return stylesheet.link("subscribe/assets/checkout.css");
    }
}
