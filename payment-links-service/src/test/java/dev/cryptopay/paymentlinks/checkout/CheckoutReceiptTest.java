package dev.cryptopay.paymentlinks.checkout;

import static dev.cryptopay.checkoutui.PageChecks.state;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cryptopay.auth.internal.MerchantIdentity;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A paid checkout shows its transaction as a receipt: the whole hash (which wraps rather than overflowing) and, where
 * the network has a block explorer configured, a link to it. The test base configures one for the test network.
 */
class CheckoutReceiptTest extends CheckoutTestBase {

    @Test
    void aPaidLinkShowsEachConfirmedTransactionWithItsExplorerLink() {
        MerchantIdentity merchant = merchantWithKey();
        String id = link(merchant, "2.5", "USDC", Map.of()).get("id").asString();
        String hash = "0x" + "ab12".repeat(16);
        report(id, hash, "2.5", "confirmed", 3, 3);

        String html = html(id);
        assertThat(state(html)).isEqualTo("paid");
        assertThat(html)
                .contains("<dl id=\"receipt\" class=\"fields receipt\">")
                .contains("<dd>2.5 USDC on Local dev chain</dd>")
                .contains("<code class=\"tx-hash\">" + hash + "</code>")
                .contains("<a class=\"explorer\" href=\"https://explorer.test/tx/" + hash
                        + "\" rel=\"noopener noreferrer\" target=\"_blank\">View on block explorer</a>");
    }

    @Test
    void noReceiptBeforeThePaymentAndNoLinkForAHashTheExplorerCannotShow() {
        MerchantIdentity merchant = merchantWithKey();
        String waiting = link(merchant, "1").get("id").asString();
        assertThat(html(waiting)).doesNotContain("id=\"receipt\"");

        String id = link(merchant, "1").get("id").asString();
        report(id, "0xnot-a-hash", "1", "confirmed", 3, 3);
        String html = html(id);
        assertThat(html).contains("<code class=\"tx-hash\">0xnot-a-hash</code>").doesNotContain("class=\"explorer\"");
    }
}
