package dev.cryptopay.paymentlinks.refund;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cryptopay.auth.internal.MerchantIdentity;
import java.util.Locale;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * {@code POST /internal/payment_links/{id}/outgoing_transfers}: a transfer out of the deposit address pays the oldest
 * open refund with its token, recipient and amount (pending, then completed with {@code transfer.completed} and
 * {@code payment.refunded}; reorganised away, failed), any other is a withdrawal ({@code wallet.withdrawal} once
 * confirmed). Repeats are 200; only what no ordinary sequence of reports sends is a 409.
 */
class OutgoingTransfersTest extends RefundTestBase {

    @Test
    void aRefundPaidPendingThenConfirmedIsCompletedAndTheMoneyNoLongerCounts() {
        MerchantIdentity merchant = merchantWithKey();
        JsonNode created = newLink(merchant, "10", 1);
        String id = created.get("id").asString();
        String deposit = created.get("deposit_address").asString();
        String paid = pay(id, "10", ALICE).get("id").asString();
        JsonNode refund = refundOk(merchant, id, "{}");
        String hash = newHash();
        // The watcher writes addresses in lower case.
        String to = ALICE.toLowerCase(Locale.ROOT);
        String from = deposit.toLowerCase(Locale.ROOT);

        JsonNode seen = outgoingReport(id, outgoing(hash, from, to, "10", "pending"), 201)
                .get("data");
        assertThat(seen.get("transfer").get("refund_id").asString())
                .isEqualTo(refund.get("id").asString());
        assertThat(seen.get("transfer").get("withdrawal").asBoolean()).isFalse();
        assertThat(seen.get("refund").get("status").asString()).isEqualTo("pending");
        assertThat(seen.get("refund").get("tx_hash").asString()).isEqualTo(hash);
        assertThat(seen.get("refund").get("log_index").asInt()).isZero();
        JsonNode listed = refunds(merchant, id, "").get("data").get(0);
        assertThat(listed.get("status").asString()).isEqualTo("pending");
        assertThat(listed.get("tx_hash").asString()).isEqualTo(hash);
        assertThat(eventTypes(id)).containsExactly("payment.created", "payment.completed", "transfer.initiated");
        outgoingReport(
                id,
                outgoing(hash, from, to, "10", "pending").replace("\"confirmations\":1", "\"confirmations\":4"),
                200);

        JsonNode confirmed = outgoingReport(id, outgoing(hash, from, to, "10", "confirmed"), 200)
                .get("data");
        assertThat(confirmed.get("refund").get("status").asString()).isEqualTo("completed");
        assertThat(eventTypes(id))
                .containsExactly(
                        "payment.created",
                        "payment.completed",
                        "transfer.initiated",
                        "transfer.completed",
                        "payment.refunded");
        JsonNode completed = lastEvent(id, "transfer.completed");
        assertThat(completed.get("refund_id").asString())
                .isEqualTo(refund.get("id").asString());
        assertThat(completed.get("status").asString()).isEqualTo("completed");
        assertThat(completed.get("transaction_hash").asString()).isEqualTo(hash);
        assertThat(completed.get("log_index").asInt()).isZero();
        assertThat(completed.get("confirmations").asInt()).isEqualTo(12);
        JsonNode refunded = lastEvent(id, "payment.refunded");
        assertThat(refunded.get("id").asString()).isEqualTo(id);
        assertThat(refunded.get("late").asBoolean()).isFalse();
        assertThat(refunded.get("amount_received").asString())
                .as("the refunded money")
                .isEqualTo("0");
        assertThat(refunded.get("transaction_hash").isNull())
                .as("a refund of the link's money")
                .isTrue();
        assertThat(refunded.get("refund").get("id").asString())
                .isEqualTo(refund.get("id").asString());
        assertThat(refunded.get("refund").get("amount").asString()).isEqualTo("10");
        assertThat(refunded.get("refund").get("to_address").asString()).isEqualTo(ALICE);
        assertThat(refunded.get("refund").get("transaction_hash").asString()).isEqualTo(hash);

        JsonNode link = link(merchant, id);
        assertThat(link.get("payment_status").asString())
                .as("status and uses stay")
                .isEqualTo("completed");
        assertThat(link.get("current_uses").asInt()).isEqualTo(1);
        JsonNode transaction = link.get("transactions").get(0);
        assertThat(transaction.get("id").asString()).isEqualTo(paid);
        assertThat(transaction.get("status").asString()).isEqualTo("refunded");
        assertThat(transaction.get("refunded_amount").decimalValue()).isEqualByComparingTo("10");
        assertThat(link.get("summary").get("total_amount_received_crypto").decimalValue())
                .isZero();
        assertThat(link.get("summary").get("total_payers").asInt()).isZero();
        assertThat(link.get("refunds").get(0).get("status").asString()).isEqualTo("completed");
        JsonNode out = link.get("outgoing_transfers").get(0);
        assertThat(out.get("tx_hash").asString()).isEqualTo(hash);
        assertThat(out.get("refund_id").asString()).isEqualTo(refund.get("id").asString());
        assertThat(out.get("status").asString()).isEqualTo("confirmed");

        // Repeats and older reports change nothing; a reorganisation deeper than the confirmations is an operator's.
        outgoingReport(id, outgoing(hash, from, to, "10", "confirmed"), 200);
        outgoingReport(id, outgoing(hash, from, to, "10", "pending"), 200);
        assertThat(outgoingReport(id, outgoing(hash, from, to, "10", "failed"), 409)
                        .get("code")
                        .asString())
                .isEqualTo("illegal_transition");
        assertThat(eventTypes(id)).hasSize(5);
        assertThat(refundRefused(merchant, id, "{}", 409).get("code").asString())
                .isEqualTo("nothing_to_refund");
    }

    @Test
    void aRefundOfOneTransferReturnsItAndAConfirmedTransferPaysARefundAtOnce() {
        MerchantIdentity merchant = merchantWithKey();
        JsonNode created = newLink(merchant, "10", 3);
        String id = created.get("id").asString();
        String deposit = created.get("deposit_address").asString();
        JsonNode alices = pay(id, "10", ALICE);
        pay(id, "10", BOB);
        String ofAlices = "{\"transaction_id\":\"" + alices.get("id").asString() + "\",\"amount\":4}";
        refundOk(merchant, id, ofAlices);

        JsonNode paid = outgoingReport(id, outgoing(newHash(), deposit, ALICE, "4", "confirmed"), 201)
                .get("data");
        assertThat(paid.get("refund").get("status").asString()).isEqualTo("completed");
        JsonNode refunded = lastEvent(id, "payment.refunded");
        assertThat(refunded.get("transaction_hash").asString())
                .as("the transfer refunded")
                .isEqualTo(alices.get("tx_hash").asString());
        assertThat(refunded.get("refund").get("transaction_id").asString())
                .isEqualTo(alices.get("id").asString());
        assertThat(refunded.get("amount_received").asString()).isEqualTo("16");
        JsonNode alicesNow = transactionOf(link(merchant, id), alices.get("id").asString());
        assertThat(alicesNow.get("status").asString()).as("partly refunded").isEqualTo("confirmed");
        assertThat(alicesNow.get("refunded_amount").decimalValue()).isEqualByComparingTo("4");

        // The rest of it: all of it back, it reads refunded.
        refundOk(merchant, id, "{\"transaction_id\":\"" + alices.get("id").asString() + "\"}");
        outgoingReport(id, outgoing(newHash(), deposit, ALICE, "6", "confirmed"), 201);
        alicesNow = transactionOf(link(merchant, id), alices.get("id").asString());
        assertThat(alicesNow.get("status").asString()).isEqualTo("refunded");
        assertThat(alicesNow.get("refunded_amount").decimalValue()).isEqualByComparingTo("10");
        assertThat(link(merchant, id)
                        .get("summary")
                        .get("total_amount_received_crypto")
                        .decimalValue())
                .isEqualByComparingTo("10");
    }

    @Test
    void theOldestOpenRefundWithTheSameMoneyIsPaidFirst() {
        MerchantIdentity merchant = merchantWithKey();
        JsonNode created = newLink(merchant, "10", 1);
        String id = created.get("id").asString();
        String deposit = created.get("deposit_address").asString();
        pay(id, "10", ALICE);
        String older = refundOk(merchant, id, "{\"amount\":3}").get("id").asString();
        clock.advance(java.time.Duration.ofSeconds(1));
        String newer = refundOk(merchant, id, "{\"amount\":3}").get("id").asString();

        JsonNode first = outgoingReport(id, outgoing(newHash(), deposit, ALICE, "3", "pending"), 201)
                .get("data");
        assertThat(first.get("refund").get("id").asString()).isEqualTo(older);
        JsonNode second = outgoingReport(id, outgoing(newHash(), deposit, ALICE, "3", "pending"), 201)
                .get("data");
        assertThat(second.get("refund").get("id").asString()).isEqualTo(newer);
        // A third of the same money finds no open refund: the merchant withdrew it.
        JsonNode third = outgoingReport(id, outgoing(newHash(), deposit, ALICE, "3", "pending"), 201)
                .get("data");
        assertThat(third.has("refund")).isFalse();
        assertThat(third.get("transfer").get("withdrawal").asBoolean()).isTrue();
    }

    @Test
    void aReorganisedRefundFailsAndIsPaidAgainWhenItsTransferReturns() {
        MerchantIdentity merchant = merchantWithKey();
        JsonNode created = newLink(merchant, "10", 1);
        String id = created.get("id").asString();
        String deposit = created.get("deposit_address").asString();
        pay(id, "10", ALICE);
        String refundId = refundOk(merchant, id, "{}").get("id").asString();
        String hash = newHash();

        outgoingReport(id, outgoing(hash, deposit, ALICE, "10", "pending"), 201);
        JsonNode gone = outgoingReport(id, outgoing(hash, deposit, ALICE, "10", "failed"), 200)
                .get("data");
        assertThat(gone.get("refund").get("status").asString()).isEqualTo("failed");
        assertThat(gone.get("refund").get("failure_reason").asString()).isEqualTo("reorganised");
        JsonNode failed = lastEvent(id, "transfer.failed");
        assertThat(failed.get("refund_id").asString()).isEqualTo(refundId);
        assertThat(failed.get("reason").asString()).isEqualTo("reorganised");
        assertThat(failed.get("status").asString()).isEqualTo("failed");
        assertThat(failed.get("transaction_hash").asString()).isEqualTo(hash);

        // A later block holds it again: the refund it paid is paid after all.
        JsonNode back = outgoingReport(id, outgoing(hash, deposit, ALICE, "10", "confirmed"), 200)
                .get("data");
        assertThat(back.get("refund").get("id").asString()).isEqualTo(refundId);
        assertThat(back.get("refund").get("status").asString()).isEqualTo("completed");
        assertThat(back.get("refund").has("failure_reason")).isFalse();
        assertThat(eventTypes(id))
                .containsExactly(
                        "payment.created",
                        "payment.completed",
                        "transfer.initiated",
                        "transfer.failed",
                        "transfer.completed",
                        "payment.refunded");
    }

    @Test
    void aFailedRefundClaimsNothing() {
        MerchantIdentity merchant = merchantWithKey();
        JsonNode created = newLink(merchant, "10", 1);
        String id = created.get("id").asString();
        String deposit = created.get("deposit_address").asString();
        pay(id, "10", ALICE);
        refundOk(merchant, id, "{}");
        String hash = newHash();
        outgoingReport(id, outgoing(hash, deposit, ALICE, "10", "pending"), 201);
        outgoingReport(id, outgoing(hash, deposit, ALICE, "10", "failed"), 200);

        assertThat(refundOk(merchant, id, "{}").get("amount").decimalValue()).isEqualByComparingTo("10");
    }

    @Test
    void aTransferThatPaysNoRefundIsAWithdrawalAnnouncedOnceConfirmed() {
        MerchantIdentity merchant = merchantWithKey();
        JsonNode created = newLink(merchant, "10", 1);
        String id = created.get("id").asString();
        String deposit = created.get("deposit_address").asString();
        pay(id, "10", ALICE);
        // An open refund of other money is not paid by it.
        String refundId = refundOk(merchant, id, "{\"amount\":2}").get("id").asString();
        String sweep = newHash();

        JsonNode pending = outgoingReport(id, outgoing(sweep, deposit, CAROL, "8", "pending"), 201)
                .get("data");
        assertThat(pending.get("transfer").get("withdrawal").asBoolean()).isTrue();
        assertThat(pending.get("transfer").has("refund_id")).isFalse();
        assertThat(eventTypes(id)).doesNotContain("wallet.withdrawal");
        outgoingReport(id, outgoing(sweep, deposit, CAROL, "8", "confirmed"), 200);
        outgoingReport(id, outgoing(sweep, deposit, CAROL, "8", "confirmed"), 200);

        assertThat(eventTypes(id).stream().filter("wallet.withdrawal"::equals)).hasSize(1);
        JsonNode withdrawal = lastEvent(id, "wallet.withdrawal");
        assertThat(withdrawal.get("payment_link_id").asString()).isEqualTo(id);
        assertThat(withdrawal.get("deposit_address").asString()).isEqualTo(deposit);
        assertThat(withdrawal.get("chain_id").asLong()).isEqualTo(31337);
        assertThat(withdrawal.get("token_contract").asString()).isEqualTo(TEST_USDC);
        assertThat(withdrawal.get("asset").asString()).isEqualTo("USDC");
        assertThat(withdrawal.get("amount").asString()).isEqualTo("8");
        assertThat(withdrawal.get("to_address").asString()).isEqualTo(CAROL);
        assertThat(withdrawal.get("transaction_hash").asString()).isEqualTo(sweep);
        assertThat(withdrawal.get("log_index").asInt()).isZero();

        // A withdrawal reorganised away is no news.
        String lost = newHash();
        outgoingReport(id, outgoing(lost, deposit, CAROL, "1", "pending"), 201);
        outgoingReport(id, outgoing(lost, deposit, CAROL, "1", "failed"), 200);
        assertThat(eventTypes(id).stream().filter("wallet.withdrawal"::equals)).hasSize(1);

        JsonNode link = link(merchant, id);
        assertThat(link.get("summary").get("total_amount_received_crypto").decimalValue())
                .as("moving money out is no refund")
                .isEqualByComparingTo("10");
        assertThat(link.get("outgoing_transfers")).hasSize(2);
        assertThat(link.get("outgoing_transfers").findValues("refund_id")).isEmpty();
        assertThat(refunds(merchant, id, "").get("data").get(0).get("id").asString())
                .isEqualTo(refundId);
        assertThat(refunds(merchant, id, "").get("data").get(0).get("status").asString())
                .isEqualTo("initiated");
    }

    @Test
    void reportsNoOrdinarySequenceSendsAreRefused() {
        MerchantIdentity merchant = merchantWithKey();
        JsonNode created = newLink(merchant, "10", 1);
        String id = created.get("id").asString();
        String deposit = created.get("deposit_address").asString();
        String other = newLink(merchant, "10", 1).get("id").asString();
        String hash = newHash();
        outgoingReport(id, outgoing(hash, deposit, BOB, "1", "pending"), 201);

        JsonNode elsewhere = outgoingReport(
                other,
                outgoing(hash, link(merchant, other).get("deposit_address").asString(), BOB, "1", "pending"),
                409);
        assertThat(elsewhere.get("code").asString()).isEqualTo("transaction_conflict");
        JsonNode otherMoney = outgoingReport(id, outgoing(hash, deposit, BOB, "2", "confirmed"), 409);
        assertThat(otherMoney.get("code").asString()).isEqualTo("transaction_conflict");
        assertThat(otherMoney.get("message").asString())
                .isEqualTo("This transfer is already recorded with another token, recipient or amount");
        assertThat(outgoingReport(id, outgoing(newHash(), ALICE, BOB, "1", "pending"), 409)
                        .get("code")
                        .asString())
                .isEqualTo("not_from_deposit_address");
        String unpayable = createOk(newMerchant(), "{\"payment_name\":\"Hat\",\"amount\":1,\"currency\":\"USDC\"}")
                .get("id")
                .asString();
        assertThat(outgoingReport(unpayable, outgoing(newHash(), deposit, BOB, "1", "pending"), 409)
                        .get("code")
                        .asString())
                .isEqualTo("no_deposit_address");
        outgoingReport(UUID.randomUUID().toString(), outgoing(newHash(), deposit, BOB, "1", "pending"), 404);

        JsonNode malformed = outgoingReport(
                id,
                "{\"network\":\"Local dev chain\",\"tx_hash\":\"0x1\",\"log_index\":-1,\"token_contract\":\""
                        + TEST_USDC + "\",\"from_address\":\"deposit\",\"to_address\":\"" + BOB
                        + "\",\"crypto_amount\":-1,\"status\":\"refunded\",\"extra\":1}",
                400);
        assertThat(malformed.get("errors"))
                .extracting(error -> error.get("field").asString())
                .containsExactlyInAnyOrder("extra", "from_address", "crypto_amount", "status", "log_index");
        assertThat(eventTypes(id)).containsExactly("payment.created");
    }

    private static JsonNode transactionOf(JsonNode link, String transactionId) {
        for (JsonNode transaction : link.get("transactions")) {
            if (transaction.get("id").asString().equals(transactionId)) {
                return transaction;
            }
        }
        throw new AssertionError("no transaction " + transactionId);
    }
}
