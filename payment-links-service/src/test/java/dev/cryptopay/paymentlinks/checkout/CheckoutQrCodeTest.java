package dev.cryptopay.paymentlinks.checkout;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cryptopay.auth.internal.MerchantIdentity;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** The page's QR code, read back with ZXing's reader, is exactly the EIP-681 request of what is due. */
class CheckoutQrCodeTest extends CheckoutTestBase {

    @Test
    void theQrCodeDecodesToTheLinksPaymentUri() {
        MerchantIdentity merchant = merchantWithKey();
        JsonNode token = link(merchant, "10.5");
        String svg = SvgQrDecoder.svgOf(html(token.get("id").asString()));

        assertThat(SvgQrDecoder.decode(svg)).isEqualTo(token.get("payment_uri").asString());
        assertThat(svg)
                .contains("role=\"img\"")
                .contains("aria-label=\"QR code of the payment request: 10.5 USDC to "
                        + token.get("deposit_address").asString() + "\"")
                .contains("<rect width=")
                .as("presentation attributes only; the CSP forbids inline styles")
                .doesNotContain("style");

        JsonNode coin = link(merchant, "0.25", "ETH", Map.of());
        assertThat(SvgQrDecoder.decode(SvgQrDecoder.svgOf(html(coin.get("id").asString()))))
                .isEqualTo(coin.get("payment_uri").asString())
                .endsWith("?value=250000000000000000");
    }

    @Test
    void theQrCodeHasAQuietZoneOfFourModules() {
        String svg =
                SvgQrDecoder.svgOf(html(link(merchantWithKey(), "1").get("id").asString()));
        Matcher box = Pattern.compile("viewBox=\"0 0 (\\d+) \\1\"").matcher(svg);
        assertThat(box.find()).isTrue();
        int size = Integer.parseInt(box.group(1));
        assertThat((size - 2 * QrCodeSvg.QUIET_ZONE - 21) % 4)
                .as("a QR version is 21 + 4k modules wide")
                .isZero();
        assertThat(svg).as("the finder pattern's top row comes first").contains("d=\"M4 4h7v1h-7z");
        Matcher run = Pattern.compile("M(\\d+) (\\d+)h(\\d+)").matcher(svg);
        int runs = 0;
        while (run.find()) {
            int x = Integer.parseInt(run.group(1));
            int y = Integer.parseInt(run.group(2));
            int length = Integer.parseInt(run.group(3));
            assertThat(x).isGreaterThanOrEqualTo(4);
            assertThat(x + length).isLessThanOrEqualTo(size - 4);
            assertThat(y).isBetween(4, size - 5);
            runs++;
        }
        assertThat(runs).isGreaterThan(21);
    }

    @Test
    void anUnderpaidLinksQrCodeAsksForTheRemainder() {
        MerchantIdentity merchant = merchantWithKey();
        JsonNode link = link(merchant, "2.5");
        String id = link.get("id").asString();
        report(id, "0xq1", "0.75", "confirmed", 12, 12);

        String decoded = SvgQrDecoder.decode(SvgQrDecoder.svgOf(html(id)));
        assertThat(decoded).isEqualTo(link.get("payment_uri").asString().replace("uint256=2500000", "uint256=1750000"));
    }
}
