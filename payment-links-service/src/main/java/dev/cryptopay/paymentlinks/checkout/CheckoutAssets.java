package dev.cryptopay.paymentlinks.checkout;

import dev.cryptopay.checkoutui.StaticAsset;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * The checkout page's script and stylesheet, served from memory with a year-long, immutable cache lifetime (see
 * {@link StaticAsset}). The script is one bundle: checkout-ui's shared wallet and live-status scripts, then this
 * page's own {@code src/main/resources/checkout/checkout.js}; the stylesheet is checkout-ui's, which the subscribe
 * page uses too. The page links them with {@code ?v=<content hash>}, so a new release changes the address and no
 * browser keeps an old file.
 */
@RestController
class CheckoutAssets {

    private final StaticAsset script = StaticAsset.load(
            StaticAsset.JAVASCRIPT, StaticAsset.WALLET_SCRIPT, StaticAsset.LIVE_SCRIPT, "checkout/checkout.js");
    private final StaticAsset stylesheet = StaticAsset.load(StaticAsset.CSS, StaticAsset.STYLESHEET);

    @GetMapping("/checkout/assets/checkout.js")
    ResponseEntity<byte[]> script() {
        return script.response();
    }

    @GetMapping("/checkout/assets/checkout.css")
    ResponseEntity<byte[]> stylesheet() {
        return stylesheet.response();
    }

    /** The script's address relative to the page ({@code /checkout/payment_link}). */
    String scriptPath() {
        return script.link("assets/checkout.js");
    }

    String stylesheetPath() {
        return stylesheet.link("assets/checkout.css");
    }
}
