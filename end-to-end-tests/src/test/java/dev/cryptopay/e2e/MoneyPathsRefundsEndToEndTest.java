package dev.cryptopay.e2e;

import static dev.cryptopay.e2e.SuiteStack.JSON;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cryptopay.testsupport.chain.DevTokens;
import java.math.BigInteger;
import java.net.http.HttpResponse;
import java.util.Locale;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.web3j.protocol.core.methods.response.TransactionReceipt;
import tools.jackson.databind.JsonNode;

/**
 * Money leaving deposit addresses, through the whole running suite. The platform holds no key: the merchant's wallet
 * (here the test, which holds the keys of the merchant's receiving {@code xpub}) pays a refund's {@code payment_uri}
 * from the deposit address, with gas sent there from a dev account. A refund paid and confirmed completes
 * ({@code transfer.completed}, {@code payment.refunded}) and the money no longer counts as received; any other transfer
 * out is a {@code wallet.withdrawal}; a refund whose transfer is reorganised away on anvil fails
 * ({@code transfer.failed}, reason {@code reorganised}) and its money can be refunded again. Money arriving:
 * {@link MoneyPathsEndToEndTest}.
 */
class MoneyPathsRefundsEndToEndTest {

    private static MoneyPathsMerchant merchant;

    @BeforeAll
    static void merchant() {
        merchant = MoneyPathsMerchant.start("Money Paths Out");
    }

    @AfterAll
    static void close() {
        merchant.close();
    }

    @Test
    void aRefundPaidFromTheDepositAddressCompletesAndTheMoneyNoLongerCountsAsReceived() throws Exception {
        JsonNode link = paidLink("Refunded");
        String id = link.get("id").asString();
        String deposit = link.get("deposit_address").asString();

        JsonNode refund = createRefund(id, "{}");
        String refundId = refund.get("id").asString();
        assertThat(refund.get("status").asString()).isEqualTo("initiated");
        assertThat(refund.get("amount").decimalValue()).isEqualByComparingTo("10");
        assertThat(refund.get("asset").asString()).isEqualTo("USDC");
        assertThat(refund.get("to_address").asString())
                .as("by default back to the payer")
                .isEqualToIgnoringCase(merchant.payer);
        assertThat(refund.get("from_address").asString()).isEqualToIgnoringCase(deposit);
        JsonNode initiated = merchant.awaitEvent(id, "transfer.initiated");
        assertThat(initiated.get("refund_id").asString()).isEqualTo(refundId);
        assertThat(initiated.get("payment_uri").asString())
                .isEqualTo(refund.get("payment_uri").asString());

        BigInteger payerBefore = merchant.chain.tokenBalance(DevTokens.USDC, merchant.payer);
        String gas = merchant.fundGas(deposit);
        TransactionReceipt paid =
                merchant.payFrom(deposit, refund.get("payment_uri").asString());
        merchant.confirm();
        String tx = paid.getTransactionHash();
        int logIndex =
                MoneyPathsMerchant.transferLogs(paid).get(0).getLogIndex().intValueExact();

        JsonNode completed = merchant.awaitEvent(id, "transfer.completed");
        assertThat(completed.get("refund_id").asString()).isEqualTo(refundId);
        assertThat(completed.get("status").asString()).isEqualTo("completed");
        assertThat(completed.get("transaction_hash").asString()).isEqualTo(tx);
        assertThat(completed.get("log_index").asInt()).isEqualTo(logIndex);
        JsonNode refunded = merchant.awaitEvent(id, "payment.refunded").get("refund");
        assertThat(refunded.get("id").asString()).isEqualTo(refundId);
        assertThat(refunded.get("amount").asString()).isEqualTo("10");
        assertThat(refunded.get("transaction_hash").asString()).isEqualTo(tx);
        assertThat(refunded.get("log_index").asInt()).isEqualTo(logIndex);

        assertThat(merchant.refunds(id)).singleElement().satisfies(read -> {
            assertThat(read.get("status").asString()).isEqualTo("completed");
            assertThat(read.get("tx_hash").asString()).isEqualTo(tx);
            assertThat(read.get("log_index").asInt()).isEqualTo(logIndex);
        });
        JsonNode after = merchant.link(id);
        assertThat(after.get("summary").get("total_amount_received_crypto").decimalValue())
                .as("refunded money is no longer received")
                .isEqualByComparingTo("0");
        assertThat(after.get("transactions"))
                .filteredOn(transfer -> transfer.get("asset").asString().equals("USDC"))
                .singleElement()
                .satisfies(payment -> {
                    assertThat(payment.get("status").asString()).isEqualTo("refunded");
                    assertThat(payment.get("refunded_amount").decimalValue()).isEqualByComparingTo("10");
                });
        assertThat(after.get("outgoing_transfers")).singleElement().satisfies(out -> {
            assertThat(out.get("refund_id").asString()).isEqualTo(refundId);
            assertThat(out.get("tx_hash").asString()).isEqualTo(tx);
            assertThat(out.get("status").asString()).isEqualTo("confirmed");
        });
        assertThat(merchant.chain.tokenBalance(DevTokens.USDC, merchant.payer).subtract(payerBefore))
                .isEqualTo(DevTokens.USDC.baseUnits("10"));

        // The merchant's gas is money on the address that never pays the link.
        JsonNode gasDeposit = merchant.awaitEvent(id, "wallet.deposit");
        assertThat(gasDeposit.get("reason").asString()).isEqualTo("unexpected_asset");
        assertThat(gasDeposit.get("transaction_asset").asString()).isEqualTo("ETH");
        assertThat(gasDeposit.get("transaction_hash").asString()).isEqualTo(gas);
        assertThat(gasDeposit.get("log_index").asInt()).isEqualTo(-1);

        MoneyPathsMerchant.settle();
        assertThat(merchant.types(id))
                .containsOnlyOnce("payment.completed", "transfer.initiated", "transfer.completed", "payment.refunded")
                .doesNotContain("wallet.withdrawal", "transfer.failed");
    }

    @Test
    void anyOtherTransferOutOfADepositAddressIsAWithdrawal() throws Exception {
        JsonNode link = paidLink("Swept");
        String id = link.get("id").asString();
        String deposit = link.get("deposit_address").asString();
        String treasury = MoneyPathsMerchant.freshAddress();

        merchant.fundGas(deposit);
        TransactionReceipt sweep =
                merchant.transferFrom(deposit, DevTokens.USDC, treasury, DevTokens.USDC.baseUnits("10"));
        merchant.confirm();
        String tx = sweep.getTransactionHash();
        int logIndex =
                MoneyPathsMerchant.transferLogs(sweep).get(0).getLogIndex().intValueExact();

        JsonNode withdrawal = merchant.awaitEvent(id, "wallet.withdrawal");
        assertThat(withdrawal.get("payment_link_id").asString()).isEqualTo(id);
        assertThat(withdrawal.get("deposit_address").asString()).isEqualToIgnoringCase(deposit);
        assertThat(withdrawal.get("to_address").asString()).isEqualToIgnoringCase(treasury);
        assertThat(withdrawal.get("amount").asString()).isEqualTo("10");
        assertThat(withdrawal.get("asset").asString()).isEqualTo("USDC");
        assertThat(withdrawal.get("token_contract").asString())
                .isEqualTo(DevTokens.USDC.address().toLowerCase(Locale.ROOT));
        assertThat(withdrawal.get("transaction_hash").asString()).isEqualTo(tx);
        assertThat(withdrawal.get("log_index").asInt()).isEqualTo(logIndex);

        assertThat(merchant.link(id).get("outgoing_transfers")).singleElement().satisfies(out -> {
            assertThat(out.has("refund_id")).as("a withdrawal pays no refund").isFalse();
            assertThat(out.get("tx_hash").asString()).isEqualTo(tx);
            assertThat(out.get("log_index").asInt()).isEqualTo(logIndex);
            assertThat(out.get("status").asString()).isEqualTo("confirmed");
        });
        assertThat(merchant.chain.tokenBalance(DevTokens.USDC, treasury)).isEqualTo(DevTokens.USDC.baseUnits("10"));

        MoneyPathsMerchant.settle();
        assertThat(merchant.types(id))
                .containsOnlyOnce("wallet.withdrawal")
                .doesNotContain("transfer.initiated", "transfer.completed", "transfer.failed", "payment.refunded");
    }

    @Test
    void aRefundWhoseTransferIsReorganisedAwayFailsAndItsMoneyCanBeRefundedAgain() throws Exception {
        JsonNode link = paidLink("Reorganised refund");
        String id = link.get("id").asString();
        String deposit = link.get("deposit_address").asString();
        merchant.fundGas(deposit);
        merchant.confirm();

        JsonNode refund = createRefund(id, "{\"amount\":4}");
        String refundId = refund.get("id").asString();
        assertThat(refund.get("amount").decimalValue()).isEqualByComparingTo("4");
        merchant.awaitEvent(id, "transfer.initiated");
        TransactionReceipt paid =
                merchant.payFrom(deposit, refund.get("payment_uri").asString());
        String tx = paid.getTransactionHash();
        long block = paid.getBlockNumber().longValueExact();

        // Seen by the watcher with one confirmation of the two it needs: the refund is pending.
        SuiteStack.await(
                "refund " + refundId + " pending",
                MoneyPathsMerchant.WAIT,
                () -> merchant.refunds(id).stream()
                        .anyMatch(read -> read.get("status").asString().equals("pending")
                                && read.get("tx_hash").asString().equals(tx)));
        assertThat(merchant.chain.blockNumber())
                .as("no block mined since the refund's: it is still pending when reorganised")
                .isEqualTo(block);

        merchant.chain.reorg(1); // its block replaced by an empty one: the transfer is gone, not pending again
        assertThat(merchant.chain.receipt(tx)).isEmpty();
        merchant.chain.mine(1);

        JsonNode failed = merchant.awaitEvent(id, "transfer.failed");
        assertThat(failed.get("reason").asString()).isEqualTo("reorganised");
        assertThat(failed.get("refund_id").asString()).isEqualTo(refundId);
        assertThat(failed.get("status").asString()).isEqualTo("failed");
        assertThat(failed.get("transaction_hash").asString()).isEqualTo(tx);
        assertThat(merchant.refunds(id)).singleElement().satisfies(read -> {
            assertThat(read.get("status").asString()).isEqualTo("failed");
            assertThat(read.get("failure_reason").asString()).isEqualTo("reorganised");
        });
        JsonNode after = merchant.link(id);
        assertThat(after.get("summary").get("total_amount_received_crypto").decimalValue())
                .isEqualByComparingTo("10");
        assertThat(after.get("outgoing_transfers")).singleElement().satisfies(out -> {
            assertThat(out.get("tx_hash").asString()).isEqualTo(tx);
            assertThat(out.get("status").asString()).isEqualTo("failed");
        });
        assertThat(merchant.chain.tokenBalance(DevTokens.USDC, deposit)).isEqualTo(DevTokens.USDC.baseUnits("10"));

        // The chain goes on, and a failed refund claims nothing: all of the link's money can be refunded again.
        JsonNode again = createRefund(id, "{}");
        assertThat(again.get("amount").decimalValue()).isEqualByComparingTo("10");
        MoneyPathsMerchant.settle();
        assertThat(merchant.types(id))
                .containsOnlyOnce("transfer.failed")
                .doesNotContain("transfer.completed", "payment.refunded", "wallet.withdrawal");
    }

    /** A new 10 USDC link paid by the payer and completed. */
    private static JsonNode paidLink(String name) {
        JsonNode link = merchant.createLink(name, "10", "");
        String id = link.get("id").asString();
        merchant.pay(DevTokens.USDC, link.get("deposit_address").asString(), "10");
        merchant.confirm();
        merchant.awaitStatus(id, "completed");
        merchant.awaitEvent(id, "payment.completed");
        return link;
    }

    private static JsonNode createRefund(String id, String body) {
        HttpResponse<String> created = merchant.api.post("/payment_links/" + id + "/refunds", body);
        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
        return JSON.readTree(created.body()).get("data");
    }
}
