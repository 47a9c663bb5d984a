package dev.cryptopay.e2e;

import static dev.cryptopay.e2e.SuiteStack.JSON;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cryptopay.testsupport.chain.DevTokens;
import java.math.BigInteger;
import java.net.http.HttpResponse;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.web3j.abi.datatypes.Address;
import org.web3j.abi.datatypes.DynamicArray;
import org.web3j.abi.datatypes.Function;
import org.web3j.abi.datatypes.generated.Uint256;
import org.web3j.protocol.core.methods.response.Log;
import org.web3j.protocol.core.methods.response.TransactionReceipt;
import tools.jackson.databind.JsonNode;

/**
 * Money arriving at payment links, through the whole running suite: real transfers on the dev chain, seen by
 * chain-watcher, recorded by payment-links-service, read through the gateway and delivered as signed webhooks. Every
 * transfer is counted once, by (transaction, log index): one transaction paying three links completes each once; a
 * payment after a link stopped taking them is late ({@code wallet.deposit}, never {@code payment.completed}) until the
 * merchant resolves it; another token is an unexpected asset that never pays the link. Refunds, sweeps and a
 * reorganised refund: {@link MoneyPathsRefundsEndToEndTest}.
 */
class MoneyPathsEndToEndTest {

    private static MoneyPathsMerchant merchant;

    @BeforeAll
    static void merchant() {
        merchant = MoneyPathsMerchant.start("Money Paths In");
    }

    @AfterAll
    static void close() {
        merchant.close();
    }

    @Test
    void oneMultisendTransactionPayingThreeLinksCompletesEachOnceWithItsOwnTransfers() {
        JsonNode a = merchant.createLink("Multisend A", "10", "");
        JsonNode b = merchant.createLink("Multisend B", "10", "");
        JsonNode c = merchant.createLink("Multisend C", "10", "");

        // 10 USDC to A, 10 to B, 5 + 5 to C: four Transfer logs in one transaction.
        TransactionReceipt batch = multisend(
                List.of(deposit(a), deposit(b), deposit(c), deposit(c)),
                List.of(usdc("10"), usdc("10"), usdc("5"), usdc("5")));
        List<Log> logs = MoneyPathsMerchant.transferLogs(batch);
        assertThat(logs).hasSize(4);
        merchant.confirm();
        String tx = batch.getTransactionHash();

        record Paid(JsonNode link, List<Log> logs) {}
        for (Paid paid : List.of(
                new Paid(a, logs.subList(0, 1)), new Paid(b, logs.subList(1, 2)), new Paid(c, logs.subList(2, 4)))) {
            String id = paid.link().get("id").asString();
            List<Integer> logIndexes = paid.logs().stream()
                    .map(log -> log.getLogIndex().intValueExact())
                    .toList();
            JsonNode completed = merchant.awaitStatus(id, "completed");
            assertThat(completed.get("current_uses").asInt()).isEqualTo(1);
            assertThat(completed
                            .get("summary")
                            .get("total_amount_received_crypto")
                            .decimalValue())
                    .isEqualByComparingTo("10");
            assertThat(completed.get("summary").get("total_transactions").asInt())
                    .isEqualTo(logIndexes.size());
            // Valued in USD by chain-watcher when confirmed (USDC: a dollar a unit), kept by payment-links-service
            // although the transfer was first reported pending without a value.
            assertThat(completed.get("summary").get("total_amount_received").decimalValue())
                    .isEqualByComparingTo("10");
            assertThat(completed.get("summary").get("unpriced_transactions").asInt())
                    .isZero();
            assertThat(completed.get("transactions"))
                    .as("one recorded transfer per Transfer log to the link")
                    .allSatisfy(transfer -> {
                        assertThat(transfer.get("tx_hash").asString()).isEqualTo(tx);
                        assertThat(transfer.get("status").asString()).isEqualTo("confirmed");
                        assertThat(transfer.get("late").asBoolean()).isFalse();
                        assertThat(transfer.get("payer_address").asString()).isEqualToIgnoringCase(merchant.payer);
                    })
                    .extracting(transfer -> transfer.get("log_index").asInt())
                    .containsExactlyInAnyOrderElementsOf(logIndexes);

            JsonNode event = merchant.awaitEvent(id, "payment.completed");
            assertThat(event.get("transaction_hash").asString()).isEqualTo(tx);
            assertThat(event.get("log_index").asInt()).isIn(logIndexes);
            assertThat(event.get("amount_received").asString()).isEqualTo("10");
            assertThat(event.get("late").asBoolean()).isFalse();
            assertThat(event.get("status").asString()).isEqualTo("completed");
        }
        JsonNode ofC = merchant.link(c.get("id").asString());
        assertThat(ofC.get("transactions"))
                .extracting(transfer -> transfer.get("crypto_amount").decimalValue())
                .allSatisfy(amount -> assertThat(amount).isEqualByComparingTo("5"));

        MoneyPathsMerchant.settle();
        for (JsonNode link : List.of(a, b, c)) {
            List<String> types = merchant.types(link.get("id").asString());
            assertThat(types)
                    .as("events of " + link.get("payment_name").asString())
                    .contains("payment.pending");
            assertThat(types.stream().filter("payment.completed"::equals))
                    .as("exactly one payment.completed for "
                            + link.get("payment_name").asString())
                    .hasSize(1);
            assertThat(types).doesNotContain("wallet.deposit", "payment.failed");
        }
    }

    @Test
    void dustPaidToACancelledLinkIsALateDepositAndNeverAPayment() {
        JsonNode link = merchant.createLink("Cancelled then dust", "10", "");
        String id = link.get("id").asString();
        assertThat(merchant.api.delete("/payment_links/" + id).statusCode()).isEqualTo(200);

        TransactionReceipt dust = merchant.pay(DevTokens.USDC, deposit(link), "0.01");
        merchant.confirm();
        int logIndex =
                MoneyPathsMerchant.transferLogs(dust).get(0).getLogIndex().intValueExact();

        JsonNode deposit = merchant.awaitEvent(id, "wallet.deposit");
        assertThat(deposit.get("reason").asString()).isEqualTo("late_payment");
        assertThat(deposit.get("late").asBoolean()).isTrue();
        assertThat(deposit.get("transaction_hash").asString()).isEqualTo(dust.getTransactionHash());
        assertThat(deposit.get("log_index").asInt()).isEqualTo(logIndex);
        assertThat(deposit.get("transaction_amount").asString()).isEqualTo("0.01");
        assertThat(deposit.get("transaction_asset").asString()).isEqualTo("USDC");
        assertThat(deposit.get("amount_received").asString())
                .as("a late payment is not received by the link")
                .isEqualTo("0");
        assertThat(deposit.get("status").asString()).isEqualTo("cancelled");

        JsonNode read = merchant.link(id);
        assertThat(read.get("payment_status").asString()).isEqualTo("cancelled");
        assertThat(read.get("current_uses").asInt()).isZero();
        assertThat(read.get("transactions")).singleElement().satisfies(transfer -> {
            assertThat(transfer.get("log_index").asInt()).isEqualTo(logIndex);
            assertThat(transfer.get("status").asString()).isEqualTo("confirmed");
            assertThat(transfer.get("late").asBoolean()).isTrue();
            assertThat(transfer.get("counted_as_use").asBoolean()).isFalse();
        });
        HttpResponse<String> resolved = merchant.resolve(id, dust.getTransactionHash(), logIndex);
        assertThat(resolved.statusCode()).as(resolved.body()).isEqualTo(409);
        assertThat(JSON.readTree(resolved.body()).get("code").asString()).isEqualTo("insufficient_amount");

        MoneyPathsMerchant.settle();
        assertThat(merchant.types(id))
                .containsOnlyOnce("wallet.deposit")
                .doesNotContain("payment.pending", "payment.completed");
    }

    @Test
    void aFullPaymentAfterExpiryIsLateUntilTheMerchantResolvesIt() {
        JsonNode link = merchant.createLink(
                "Expires soon", "10", ",\"expires_at\":\"" + Instant.now().plusSeconds(2) + "\"");
        String id = link.get("id").asString();
        merchant.awaitStatus(id, "expired");

        TransactionReceipt late = merchant.pay(DevTokens.USDC, deposit(link), "10");
        merchant.confirm();
        String tx = late.getTransactionHash();
        int logIndex =
                MoneyPathsMerchant.transferLogs(late).get(0).getLogIndex().intValueExact();

        JsonNode deposit = merchant.awaitEvent(id, "wallet.deposit");
        assertThat(deposit.get("reason").asString()).isEqualTo("late_payment");
        assertThat(deposit.get("late").asBoolean()).isTrue();
        assertThat(deposit.get("transaction_hash").asString()).isEqualTo(tx);
        assertThat(deposit.get("log_index").asInt()).isEqualTo(logIndex);
        assertThat(deposit.get("transaction_amount").asString()).isEqualTo("10");
        JsonNode unresolved = merchant.link(id);
        assertThat(unresolved.get("payment_status").asString()).isEqualTo("expired");
        assertThat(unresolved.get("current_uses").asInt()).isZero();
        assertThat(unresolved.get("transactions")).singleElement().satisfies(transfer -> {
            assertThat(transfer.get("late").asBoolean()).isTrue();
            assertThat(transfer.get("counted_as_use").asBoolean()).isFalse();
        });
        MoneyPathsMerchant.settle();
        assertThat(merchant.types(id)).doesNotContain("payment.pending", "payment.completed");

        HttpResponse<String> resolved = merchant.resolve(id, tx, logIndex);
        assertThat(resolved.statusCode()).as(resolved.body()).isEqualTo(200);
        JsonNode after = JSON.readTree(resolved.body()).get("data");
        assertThat(after.get("payment_status").asString()).isEqualTo("completed");
        assertThat(after.get("current_uses").asInt()).isEqualTo(1);
        assertThat(after.get("transactions")).singleElement().satisfies(transfer -> {
            assertThat(transfer.get("late").asBoolean()).isTrue();
            assertThat(transfer.get("counted_as_use").asBoolean()).isTrue();
        });

        JsonNode completed = merchant.awaitEvent(id, "payment.completed");
        assertThat(completed.get("late").asBoolean()).isTrue();
        assertThat(completed.get("transaction_hash").asString()).isEqualTo(tx);
        assertThat(completed.get("log_index").asInt()).isEqualTo(logIndex);
        assertThat(completed.get("amount_received").asString()).isEqualTo("10");
        assertThat(completed.get("status").asString()).isEqualTo("completed");

        HttpResponse<String> again = merchant.resolve(id, tx, logIndex);
        assertThat(again.statusCode()).as(again.body()).isEqualTo(200);
        MoneyPathsMerchant.settle();
        assertThat(merchant.types(id))
                .as("resolving again changes nothing")
                .containsOnlyOnce("payment.completed", "wallet.deposit")
                .doesNotContain("payment.pending");
    }

    @Test
    void anotherTokenAtTheLinkIsAnUnexpectedAssetThatCannotBeResolved() {
        JsonNode link = merchant.createLink("Wrong token", "10", "");
        String id = link.get("id").asString();

        TransactionReceipt usdt = merchant.pay(DevTokens.USDT, deposit(link), "10");
        merchant.confirm();
        int logIndex =
                MoneyPathsMerchant.transferLogs(usdt).get(0).getLogIndex().intValueExact();

        JsonNode deposit = merchant.awaitEvent(id, "wallet.deposit");
        assertThat(deposit.get("reason").asString()).isEqualTo("unexpected_asset");
        assertThat(deposit.get("transaction_asset").asString()).isEqualTo("USDT");
        assertThat(deposit.get("transaction_token_contract").asString())
                .isEqualTo(DevTokens.USDT.address().toLowerCase(Locale.ROOT));
        assertThat(deposit.get("transaction_hash").asString()).isEqualTo(usdt.getTransactionHash());
        assertThat(deposit.get("log_index").asInt()).isEqualTo(logIndex);
        assertThat(deposit.get("transaction_amount").asString()).isEqualTo("10");
        assertThat(deposit.get("amount_received").asString()).isEqualTo("0");
        assertThat(deposit.get("late").asBoolean()).isFalse();

        JsonNode read = merchant.link(id);
        assertThat(read.get("payment_status").asString()).isEqualTo("pending");
        assertThat(read.get("current_uses").asInt()).isZero();
        assertThat(read.get("summary").get("total_amount_received_crypto").decimalValue())
                .isEqualByComparingTo("0");
        assertThat(read.get("transactions")).singleElement().satisfies(transfer -> {
            assertThat(transfer.get("unexpected_asset").asBoolean()).isTrue();
            assertThat(transfer.get("asset").asString()).isEqualTo("USDT");
            assertThat(transfer.get("status").asString()).isEqualTo("confirmed");
            assertThat(transfer.get("counted_as_use").asBoolean()).isFalse();
        });
        HttpResponse<String> resolved = merchant.resolve(id, usdt.getTransactionHash(), logIndex);
        assertThat(resolved.statusCode()).as(resolved.body()).isEqualTo(409);
        assertThat(JSON.readTree(resolved.body()).get("code").asString()).isEqualTo("unexpected_asset");

        MoneyPathsMerchant.settle();
        assertThat(merchant.types(id))
                .as("no payment event but the link's creation")
                .containsExactlyInAnyOrder("payment.created", "wallet.deposit");
    }

    /** Sends USDC to the recipients in one transaction (dev-chain's TestMultisend, deployed by the payer). */
    private static TransactionReceipt multisend(List<String> recipients, List<BigInteger> amounts) {
        var chain = merchant.chain;
        String sender = merchant.payer;
        String multisend = chain.deploy(sender, "TestMultisend", "");
        BigInteger total = amounts.stream().reduce(BigInteger.ZERO, BigInteger::add);
        chain.mint(DevTokens.USDC, sender, total);
        chain.send(
                sender,
                DevTokens.USDC.address(),
                new Function("approve", List.of(new Address(multisend), new Uint256(total)), List.of()));
        Function send = new Function(
                "send",
                List.of(
                        new Address(DevTokens.USDC.address()),
                        new DynamicArray<>(
                                Address.class,
                                recipients.stream().map(Address::new).toList()),
                        new DynamicArray<>(
                                Uint256.class,
                                amounts.stream().map(Uint256::new).toList())),
                List.of());
        return chain.receipt(chain.send(sender, multisend, send)).orElseThrow();
    }

    private static String deposit(JsonNode link) {
        return link.get("deposit_address").asString();
    }

    private static BigInteger usdc(String amount) {
        return DevTokens.USDC.baseUnits(amount);
    }
}
