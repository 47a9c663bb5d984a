package dev.cryptopay.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cryptopay.testsupport.chain.DevTokens;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.web3j.protocol.core.methods.response.TransactionReceipt;
import tools.jackson.databind.JsonNode;

/**
 * A merchant uses a payment link's money actions in the dashboard (its {@code link-money.js}) in a real browser
 * (Debian's Chromium driven by playwright-core, see {@code browser/dashboard-money-walk.mjs}). The merchant is a
 * {@link MoneyPathsMerchant}, whose deposit addresses' keys the test holds: a link is cancelled, then paid in full
 * (late) and its deposit address given gas (another asset). The page shows the payment "Late" and the gas as another
 * asset, not counted; "Accept as payment" completes the link; a refund above what was received is refused at its
 * field; the link's money is refunded and its payment request copied; the test pays that request from the deposit
 * address as the merchant's wallet would, and the page shows the refund completed. The link's markup stays text;
 * axe-core finds nothing serious or critical; screenshots at desktop and phone widths are kept in
 * {@code target/dashboard-screenshots/money-*.png}.
 */
class DashboardMoneyEndToEndTest {

    private static final Path SCREENSHOTS = Path.of("target", "dashboard-screenshots");
    private static final Duration WALK_LIMIT = Duration.ofMinutes(3);
    private static final String LINK_NAME = "Late beans <img src=x onerror=alert(1)>";

    @Test
    void aMerchantAcceptsALatePaymentRefundsItAndSeesTheRefundPaid() throws Exception {
        try (MoneyPathsMerchant merchant = MoneyPathsMerchant.start("Dashboard Money Shop")) {
            JsonNode created = merchant.createLink(LINK_NAME, "10", "");
            String id = created.get("id").asString();
            String deposit = created.get("deposit_address").asString();
            assertThat(merchant.api.delete("/payment_links/" + id).statusCode()).isEqualTo(200);
            TransactionReceipt late = merchant.pay(DevTokens.USDC, deposit, "10");
            merchant.confirm();
            // The gas the refund will need: a native-coin transfer, which the USDC link records as another asset.
            merchant.fundGas(deposit);
            merchant.confirm();
            merchant.awaitLink(
                    id,
                    "the late payment and the gas confirmed",
                    link -> link.get("transactions").size() == 2
                            && link.get("transactions").values().stream()
                                    .allMatch(tx -> tx.get("status").asString().equals("confirmed")));
            Path keyFile = Files.createTempFile("dashboard-money", ".key");
            Files.writeString(keyFile, merchant.credentials.privateKey());

            NodeTools.Walk walk = NodeTools.Walk.start(
                    "dashboard-money-walk.mjs",
                    SuiteStack.get().gatewayUrl(),
                    merchant.credentials.apiKey(),
                    keyFile.toAbsolutePath().toString(),
                    id,
                    SCREENSHOTS.toAbsolutePath().toString());
            // The merchant's wallet: pays the refund the page asks for, from the deposit address, once chain-watcher
            // follows it (transfer.initiated).
            SuiteStack.await(
                    "the page asking for a refund",
                    WALK_LIMIT,
                    () -> !walk.process().isAlive()
                            || !merchant.events(id, "transfer.initiated").isEmpty());
            if (!walk.process().isAlive()) {
                walk.finish(WALK_LIMIT);
                throw new AssertionError("the walk ended before a refund was asked");
            }
            JsonNode initiated = merchant.events(id, "transfer.initiated").get(0);
            String paymentUri = initiated.get("payment_uri").asString();
            TransactionReceipt refundPaid = merchant.payFrom(deposit, paymentUri);
            merchant.confirm();
            JsonNode seen = walk.finish(WALK_LIMIT);

            // Late, not counted, with the gas as another asset; then accepted: the link completed in the page.
            assertThat(seen.get("heading").asString()).isEqualTo(LINK_NAME);
            assertThat(seen.get("markupElements").asInt()).isZero();
            assertThat(seen.get("statusBefore").asString()).isEqualTo("cancelled");
            assertThat(seen.get("receivedBefore").asString())
                    .as("a late payment is received, counted for no use")
                    .startsWith("10 USDC");
            assertThat(seen.get("lateRows").values().stream().map(JsonNode::asString))
                    .anySatisfy(row -> assertThat(row).contains("10 USDC", "Confirmed", "Late", "Not counted"));
            assertThat(seen.get("otherAssetRows").values().stream().map(JsonNode::asString))
                    .singleElement()
                    .satisfies(row -> assertThat(row).contains("Other asset: 0.01 ETH — not counted"));
            assertThat(seen.get("acceptButtons").asInt()).isEqualTo(1);
            assertThat(seen.get("noRefunds").asString()).isEqualTo("No refund has been asked for this link.");
            assertThat(seen.get("statusAfterAccept").asString()).isEqualTo("completed");
            assertThat(seen.get("acceptMessage").asString())
                    .contains("is accepted as a use of the link: completed, 1 of 1 uses.");
            assertThat(seen.get("acceptButtonsAfter").asInt()).isZero();
            assertThat(seen.get("receivedAfterAccept").asString()).startsWith("10 USDC");
            assertThat(seen.get("acceptedRows")).hasSize(1);
            JsonNode completed = merchant.awaitEvent(id, "payment.completed");
            assertThat(completed.get("late").asBoolean()).isTrue();
            assertThat(completed.get("transaction_hash").asString()).isEqualTo(late.getTransactionHash());

            // The refused amount at its field; then the refund asked, its payment request copied and explained.
            assertThat(seen.get("amountError").asString())
                    .isEqualTo("amount (11) exceeds what can be refunded (10 USDC)");
            assertThat(seen.get("amountInvalid").asString()).isEqualTo("true");
            assertThat(seen.get("refusedFocus").asString()).isEqualTo("amount");
            assertThat(seen.get("refundChoices").get(0).asString()).isEqualTo("The link's money (USDC)");
            assertThat(seen.get("paymentUri").asString()).isEqualTo(paymentUri);
            assertThat(seen.get("copied").asString()).isEqualTo(paymentUri);
            assertThat(seen.get("instructions").asString())
                    .startsWith("Pay this from the deposit address " + deposit + " with your wallet before ")
                    .endsWith("; the refund completes when the chain confirms it.");
            assertThat(seen.get("dialogs")).hasSize(1);
            assertThat(seen.at("/dialogs/0/type").asString()).isEqualTo("confirm");
            assertThat(seen.at("/dialogs/0/message").asString())
                    .contains("0x70997970C51812dc3A010C7d01b50e0d17dc79C9 has never paid this link");
            assertThat(seen.get("refundsAfterPoison").asInt())
                    .as("declined: nothing asked")
                    .isZero();
            assertThat(seen.get("initiatedRows").get(0).asString())
                    .contains("10 USDC", "Waiting for your wallet")
                    .containsPattern("0x[0-9a-fA-F]{40}")
                    .doesNotContain("Not an address that paid this link");

            // Paid from the deposit address: completed in the page as in the API, the money no longer received.
            assertThat(seen.get("completedRows").get(0).asString()).contains("10 USDC", "Completed");
            assertThat(seen.get("payRequestAfterRefund").asInt())
                    .as("what to pay is gone once paid")
                    .isZero();
            assertThat(seen.get("receivedAfterRefund").asString()).doesNotContain("null");
            JsonNode summary = merchant.link(id).get("summary");
            Matcher received = Pattern.compile("^0 USDC · ([0-9.]+) USD")
                    .matcher(seen.get("receivedAfterRefund").asString());
            assertThat(received.find())
                    .as(seen.get("receivedAfterRefund").asString())
                    .isTrue();
            assertThat(new BigDecimal(received.group(1)))
                    .isEqualByComparingTo(summary.get("total_amount_received").decimalValue());
            if (summary.get("unpriced_transactions").asInt() > 0) {
                assertThat(seen.get("receivedAfterRefund").asString()).contains("without a USD price");
            }
            assertThat(merchant.refunds(id)).singleElement().satisfies(refund -> {
                assertThat(refund.get("status").asString()).isEqualTo("completed");
                assertThat(refund.get("payment_uri").asString()).isEqualTo(paymentUri);
                assertThat(refund.get("tx_hash").asString()).isEqualTo(refundPaid.getTransactionHash());
                assertThat(refund.get("to_address").asString()).isEqualToIgnoringCase(merchant.payer);
            });

            // Only the refusal the walk provoked; nothing injected ran; no other console error.
            assertThat(NodeTools.refusedRequests(seen))
                    .containsExactly("POST /api/v1/payment_links/" + id + "/refunds 409 exceeds_refundable");
            assertThat(seen.get("dialogs"))
                    .as("no dialog but the look-alike's confirmation")
                    .hasSize(1);

            // Accessibility: nothing serious or critical in any state; nothing wider than a phone.
            assertThat(seen.get("axe").propertyNames())
                    .contains("late", "refund-refused", "refund-asked", "refund-completed");
            NodeTools.assertPagesClean(
                    seen,
                    SCREENSHOTS,
                    "money-",
                    List.of("1-late", "2-accepted", "3-refund-refused", "4-refund-asked", "5-refund-completed"));
        }
    }
}
