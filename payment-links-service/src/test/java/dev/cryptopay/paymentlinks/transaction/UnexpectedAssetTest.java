package dev.cryptopay.paymentlinks.transaction;

import static dev.cryptopay.paymentlinks.transaction.TransfersTest.newHash;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cryptopay.auth.internal.MerchantIdentity;
import dev.cryptopay.paymentlinks.PaymentLinksTestBase;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;
import org.springframework.r2dbc.core.DatabaseClient;
import tools.jackson.databind.JsonNode;

/**
 * A transfer of another asset than the link's (another token, the native coin for a token link, or the reverse) is
 * recorded on the link, named by the currency catalogue, and counts for nothing: no coverage, no use, no status, no
 * {@code payment.*} event; confirmed, it is a {@code wallet.deposit} with reason {@code unexpected_asset}, and it
 * cannot be resolved into a use.
 */
class UnexpectedAssetTest extends PaymentLinksTestBase {

    /** The test network's native coin is ETH (application.yml: an empty contract). */
    private static final String NATIVE = null;

    @Autowired
    DatabaseClient database;

    private String newLink(MerchantIdentity merchant, String currency) {
        return createOk(merchant, "{\"payment_name\":\"Lamp\",\"amount\":10,\"currency\":\"" + currency + "\"}")
                .get("id")
                .asString();
    }

    private JsonNode report(String id, String hash, int logIndex, String token, String status, int expected) {
        return read(reportTransaction(
                                id,
                                "{\"network\":\"Local dev chain\",\"tx_hash\":\"" + hash + "\","
                                        + transfer(logIndex, token)
                                        + ",\"payer_address\":\"0xpayer\",\"crypto_amount\":10,\"status\":\""
                                        + status + "\",\"confirmations\":3}")
                        .expectStatus()
                        .isEqualTo(expected))
                .get("data");
    }

    private List<JsonNode> events(String linkId) {
        return database.sql("SELECT payload FROM outbox_event WHERE aggregate_id = :id ORDER BY position")
                .bind("id", linkId)
                .map(row -> json.readTree(row.get("payload", String.class)))
                .all()
                .collectList()
                .block();
    }

    private List<String> eventTypes(String linkId) {
        return events(linkId).stream()
                .map(event -> event.get("type").asString())
                .toList();
    }

    private JsonNode link(MerchantIdentity merchant, String id) {
        return read(get(merchant, "/payment_links/" + id).expectStatus().isOk()).get("data");
    }

    private JsonNode resolve(MerchantIdentity merchant, String id, String hash, int expected) {
        return read(as(merchant, HttpMethod.POST, "/payment_links/" + id + "/resolve")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue("{\"tx_hash\":\"" + hash + "\"}")
                .exchange()
                .expectStatus()
                .isEqualTo(expected));
    }

    @Test
    void anotherTokenIsRecordedMovesNothingAndIsADepositOnceConfirmed() {
        MerchantIdentity merchant = newMerchant();
        String id = newLink(merchant, "USDC");
        String hash = newHash();

        JsonNode seen = report(id, hash, 2, TEST_USDT, "pending", 201);
        assertThat(seen.get("transaction").get("unexpected_asset").asBoolean()).isTrue();
        assertThat(seen.get("transaction").get("asset").asString()).isEqualTo("USDT");
        assertThat(seen.get("payment_link").get("payment_status").asString())
                .as("not a payment in flight")
                .isEqualTo("pending");
        JsonNode confirmed = report(id, hash, 2, TEST_USDT, "confirmed", 200);
        assertThat(confirmed.get("transaction").get("counted_as_use").asBoolean())
                .isFalse();
        assertThat(confirmed.get("payment_link").get("current_uses").asInt()).isZero();
        report(id, hash, 2, TEST_USDT, "confirmed", 200);

        assertThat(eventTypes(id)).containsExactly("payment.created", "wallet.deposit");
        JsonNode deposit = events(id).get(1).get("data");
        assertThat(deposit.get("reason").asString()).isEqualTo("unexpected_asset");
        assertThat(deposit.get("transaction_hash").asString()).isEqualTo(hash);
        assertThat(deposit.get("log_index").asInt()).isEqualTo(2);
        assertThat(deposit.get("transaction_asset").asString()).isEqualTo("USDT");
        assertThat(deposit.get("transaction_token_contract").asString()).isEqualTo(TEST_USDT);
        assertThat(deposit.get("transaction_amount").asString()).isEqualTo("10");
        assertThat(deposit.get("amount_received").asString()).isEqualTo("0");
        assertThat(deposit.get("late").asBoolean()).isFalse();
        assertThat(deposit.get("status").asString()).isEqualTo("pending");
        assertThat(deposit.get("currency").asString()).isEqualTo("USDC");

        JsonNode link = link(merchant, id);
        assertThat(link.get("payment_status").asString()).isEqualTo("pending");
        JsonNode transaction = link.get("transactions").get(0);
        assertThat(transaction.get("unexpected_asset").asBoolean()).isTrue();
        assertThat(transaction.get("asset").asString()).isEqualTo("USDT");
        assertThat(transaction.get("token_contract").asString()).isEqualTo(TEST_USDT);
        assertThat(transaction.get("log_index").asInt()).isEqualTo(2);
        assertThat(transaction.get("status").asString()).isEqualTo("confirmed");
        assertThat(link.get("summary").get("total_transactions").asInt()).isEqualTo(1);
        assertThat(link.get("summary").get("total_amount_received_crypto").decimalValue())
                .isZero();
        assertThat(link.get("summary").get("total_payers").asInt()).isZero();

        JsonNode refused = resolve(merchant, id, hash, 409);
        assertThat(refused.get("code").asString()).isEqualTo("unexpected_asset");
        assertThat(refused.get("message").asString())
                .isEqualTo("This transfer is USDT, not the link's USDC: it cannot pay the link; return it to the "
                        + "sender instead");

        // The link's own token still pays it in full: the USDT is no part of what it received.
        report(id, newHash(), 0, TEST_USDC, "confirmed", 201);
        assertThat(eventTypes(id)).containsExactly("payment.created", "wallet.deposit", "payment.completed");
        JsonNode completed = events(id).get(2).get("data");
        assertThat(completed.get("amount_received").asString()).isEqualTo("10");
        assertThat(completed.get("transaction_asset").asString()).isEqualTo("USDC");
        assertThat(link(merchant, id)
                        .get("summary")
                        .get("total_amount_received_crypto")
                        .decimalValue())
                .isEqualByComparingTo("10");
    }

    @Test
    void aNativeCoinAtATokenLinkAndATokenAtANativeLinkAreUnexpected() {
        MerchantIdentity merchant = newMerchant();
        String usdc = newLink(merchant, "USDC");
        String eth = newLink(merchant, "ETH");

        String coin = newHash();
        JsonNode coinTransfer = report(usdc, coin, -1, NATIVE, "confirmed", 201).get("transaction");
        assertThat(coinTransfer.get("unexpected_asset").asBoolean()).isTrue();
        assertThat(coinTransfer.get("asset").asString()).isEqualTo("ETH");
        assertThat(coinTransfer.has("token_contract"))
                .as("none for the native coin")
                .isFalse();
        JsonNode deposit = events(usdc).get(1).get("data");
        assertThat(deposit.get("reason").asString()).isEqualTo("unexpected_asset");
        assertThat(deposit.get("log_index").asInt()).isEqualTo(-1);
        assertThat(deposit.get("transaction_token_contract").isNull()).isTrue();
        assertThat(deposit.get("transaction_asset").asString()).isEqualTo("ETH");

        String token = newHash();
        JsonNode toNative = report(eth, token, 0, TEST_USDC, "confirmed", 201).get("transaction");
        assertThat(toNative.get("unexpected_asset").asBoolean()).isTrue();
        assertThat(toNative.get("asset").asString()).isEqualTo("USDC");
        // A token the catalogue does not know is named by its contract.
        String unknown = "0x" + "ab".repeat(20);
        JsonNode stranger = report(eth, newHash(), 1, unknown, "pending", 201).get("transaction");
        assertThat(stranger.get("asset").asString()).isEqualTo(unknown);

        // The native coin pays the ETH link.
        JsonNode paid = report(eth, newHash(), -1, NATIVE, "confirmed", 201);
        assertThat(paid.get("transaction").get("unexpected_asset").asBoolean()).isFalse();
        assertThat(paid.get("transaction").get("asset").asString()).isEqualTo("ETH");
        assertThat(paid.get("payment_link").get("payment_status").asString()).isEqualTo("completed");
        assertThat(eventTypes(eth)).containsExactly("payment.created", "wallet.deposit", "payment.completed");
        assertThat(eventTypes(usdc)).containsExactly("payment.created", "wallet.deposit");
        assertThat(link(merchant, usdc).get("payment_status").asString()).isEqualTo("pending");
    }

    @Test
    void aWrongTokenAfterExpiryIsStillAnUnexpectedAssetAndItsRefundSendsNoPaymentEvent() {
        MerchantIdentity merchant = merchantWithKey();
        String id = newLink(merchant, "USDC");
        clock.advance(Duration.ofHours(25));
        String hash = newHash();

        JsonNode recorded = report(id, hash, 0, TEST_USDT, "confirmed", 201).get("transaction");
        assertThat(recorded.get("late").asBoolean()).isTrue();
        assertThat(recorded.get("unexpected_asset").asBoolean()).isTrue();
        JsonNode deposit = events(id).get(1).get("data");
        assertThat(deposit.get("reason").asString()).isEqualTo("unexpected_asset");
        assertThat(deposit.get("late").asBoolean()).isTrue();
        assertThat(resolve(merchant, id, hash, 409).get("code").asString()).isEqualTo("unexpected_asset");

        // Returned to the sender in its own token: the refund and its transfer, no payment.refunded.
        String customer = "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC";
        JsonNode refund = read(refund(
                                merchant,
                                id,
                                "{\"transaction_id\":\"" + recorded.get("id").asString() + "\",\"address\":\""
                                        + customer + "\"}")
                        .expectStatus()
                        .isCreated())
                .get("data");
        assertThat(refund.get("asset").asString()).isEqualTo("USDT");
        assertThat(refund.get("token_contract").asString()).isEqualTo(TEST_USDT);
        assertThat(refund.get("amount").decimalValue()).isEqualByComparingTo("10");
        assertThat(refund.get("amount_base_units").asString()).isEqualTo("10000000");
        String deposited = link(merchant, id).get("deposit_address").asString();
        reportOutgoing(
                        id,
                        "{\"network\":\"Local dev chain\",\"tx_hash\":\"" + newHash() + "\","
                                + transfer(4, TEST_USDT) + ",\"from_address\":\"" + deposited
                                + "\",\"to_address\":\"" + customer.toLowerCase(java.util.Locale.ROOT)
                                + "\",\"crypto_amount\":10,\"status\":\"confirmed\",\"confirmations\":12}")
                .expectStatus()
                .isCreated();
        assertThat(link(merchant, id).get("transactions").get(0).get("status").asString())
                .isEqualTo("refunded");
        assertThat(eventTypes(id))
                .containsExactly("payment.created", "wallet.deposit", "transfer.initiated", "transfer.completed");
    }
}
