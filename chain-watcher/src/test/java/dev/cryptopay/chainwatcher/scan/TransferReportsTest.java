package dev.cryptopay.chainwatcher.scan;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cryptopay.chainwatcher.ChainWatcherTestBase;
import dev.cryptopay.testsupport.chain.DevTokens;
import dev.cryptopay.testsupport.webhook.WebhookReceiver.Reply;
import java.math.BigInteger;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.web3j.abi.datatypes.Address;
import org.web3j.abi.datatypes.DynamicArray;
import org.web3j.abi.datatypes.Function;
import org.web3j.abi.datatypes.generated.Uint256;
import org.web3j.protocol.core.methods.response.Log;
import org.web3j.protocol.core.methods.response.TransactionReceipt;
import tools.jackson.databind.JsonNode;

/**
 * What payment-links-service is told of each transfer, on a real anvil chain: one report per Transfer log, identified
 * by (network, tx_hash, log_index), in the asset actually moved — the link's token, another token, or the native coin —
 * and a refusal is never taken for an acknowledgement.
 */
class TransferReportsTest extends ChainWatcherTestBase {

    private static final DevTokens USDC = DevTokens.USDC;

    @Test
    void oneTransactionPayingSeveralWatchedAddressesIsOneReportPerLog() {
        String first = freshAddress();
        String second = freshAddress();
        UUID firstLink = announce(first, USDC.address(), 6, "1000000", inAnHour());
        UUID secondLink = announce(second, USDC.address(), 6, "3000000", inAnHour());
        scan();

        // A batch payout: 1 USDC to the first address, 1 + 2 USDC to the second, all in one transaction.
        TransactionReceipt batch =
                multisend(USDC, List.of(first, second, second), List.of(units("1", 6), units("1", 6), units("2", 6)));
        List<Log> transfers = batch.getLogs().stream()
                .filter(log -> log.getTopics().get(0).equals(ChainClient.TRANSFER_TOPIC))
                .toList();
        assertThat(transfers).hasSize(3);
        scan();

        String tx = batch.getTransactionHash();
        assertThat(reports(firstLink)).singleElement().satisfies(report -> {
            assertThat(report.propertyNames())
                    .as("the members payment-links-service reads, in this order")
                    .containsExactly(
                            "network",
                            "tx_hash",
                            "log_index",
                            "token_contract",
                            "payer_address",
                            "crypto_amount",
                            "status",
                            "confirmations",
                            "required_confirmations");
            assertThat(report.get("tx_hash").asString()).isEqualTo(tx);
            assertThat(report.get("log_index").asLong())
                    .isEqualTo(transfers.get(0).getLogIndex().longValueExact());
            assertThat(report.get("token_contract").asString()).isEqualTo(lower(USDC.address()));
            assertThat(report.get("crypto_amount").decimalValue()).isEqualByComparingTo("1");
        });
        assertThat(reports(secondLink))
                .extracting(
                        report -> report.get("tx_hash").asString(),
                        report -> report.get("log_index").asLong(),
                        report -> report.get("crypto_amount")
                                .decimalValue()
                                .stripTrailingZeros()
                                .toPlainString())
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple(
                                tx, transfers.get(1).getLogIndex().longValueExact(), "1"),
                        org.assertj.core.groups.Tuple.tuple(
                                tx, transfers.get(2).getLogIndex().longValueExact(), "2"));
    }

    @Test
    void anotherTokenAndTheNativeCoinAreReportedInTheAssetTheyMoved() {
        String tokenDeposit = freshAddress();
        String nativeDeposit = freshAddress();
        UUID tokenLink = announce(tokenDeposit, USDC.address(), 6, "5000000", inAnHour());
        UUID nativeLink = announce(nativeDeposit, null, 18, "1000000000000000000", inAnHour());
        scan();

        String wbtc = pay(DevTokens.WBTC, tokenDeposit, "0.25"); // 8 decimals, not the link's 6
        String eth = CHAIN.sendNative(payer(), tokenDeposit, new BigInteger("500000000000000000"));
        String usdc = pay(USDC, nativeDeposit, "7.5");
        scan();

        assertThat(reports(tokenLink))
                .as("each reported pending, and confirmed once deep enough")
                .extracting(TransferReportsTest::summary)
                .containsOnly(wbtc + " " + lower(DevTokens.WBTC.address()) + " 0.25", eth + " native 0.5 -1");
        assertThat(reports(nativeLink))
                .extracting(TransferReportsTest::summary)
                .containsOnly(usdc + " " + lower(USDC.address()) + " 7.5");
    }

    @Test
    void aRefusedReportIsNotAcknowledgedAndIsSentAgainOnlyAMinuteLater() {
        String deposit = freshAddress();
        UUID link = announce(deposit, USDC.address(), 6, "1000000", inAnHour());
        String path = "/internal/payment_links/" + link + "/transactions";
        PAYMENT_LINKS.otherwise(call -> Reply.status(call.path().equals(path) ? 409 : 200));
        try {
            scan();
            pay(USDC, deposit, "1");
            scan();
            assertThat(reports(link)).as("refused").hasSize(1);

            CHAIN.mine(1);
            scan();
            clock.set(clock.instant().plusSeconds(59));
            scan();
            assertThat(reports(link)).as("not sooner than a minute later").hasSize(1);

            clock.set(clock.instant().plusSeconds(2));
            scan();
            assertThat(reports(link))
                    .as("sent again, as the transfer now stands")
                    .extracting(report -> report.get("status").asString() + "/"
                            + report.get("confirmations").asInt())
                    .containsExactly("pending/1", "pending/2");

            PAYMENT_LINKS.otherwise(call -> Reply.status(200));
            clock.set(clock.instant().plusSeconds(61));
            scan();
            scan();
            assertThat(reports(link)).as("acknowledged at last, then done").hasSize(3);
            assertThat(refusals("409")).isGreaterThanOrEqualTo(2);
        } finally {
            PAYMENT_LINKS.otherwise(call -> Reply.status(200));
        }
    }

    /** "tx token amount", with " -1" for a native transfer's log index. */
    private static String summary(JsonNode report) {
        boolean nativeCoin = report.get("token_contract").isNull();
        return report.get("tx_hash").asString() + " "
                + (nativeCoin ? "native" : report.get("token_contract").asString()) + " "
                + report.get("crypto_amount")
                        .decimalValue()
                        .stripTrailingZeros()
                        .toPlainString()
                + (nativeCoin ? " " + report.get("log_index").asInt() : "");
    }

    private double refusals(String status) {
        String series =
                "chain_watcher_report_refusals_total{receiver=\"payment-links-service\",status=\"" + status + "\"}";
        return prometheus()
                .lines()
                .filter(line -> line.startsWith(series))
                .mapToDouble(line -> Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1)))
                .sum();
    }

    /** Sends {@code amounts} of a token to {@code recipients} in one transaction (dev-chain's TestMultisend). */
    private static TransactionReceipt multisend(DevTokens token, List<String> recipients, List<BigInteger> amounts) {
        String sender = CHAIN.accounts().get(2);
        String multisend = CHAIN.deploy(sender, "TestMultisend", "");
        BigInteger total = amounts.stream().reduce(BigInteger.ZERO, BigInteger::add);
        CHAIN.mint(token, sender, total);
        CHAIN.send(
                sender,
                token.address(),
                new Function("approve", List.of(new Address(multisend), new Uint256(total)), List.of()));
        Function send = new Function(
                "send",
                List.of(
                        new Address(token.address()),
                        new DynamicArray<>(
                                Address.class,
                                recipients.stream().map(Address::new).toList()),
                        new DynamicArray<>(
                                Uint256.class,
                                amounts.stream().map(Uint256::new).toList())),
                List.of());
        return CHAIN.receipt(CHAIN.send(sender, multisend, send)).orElseThrow();
    }

    private static String pay(DevTokens token, String deposit, String amount) {
        BigInteger units = units(amount, token.decimals());
        CHAIN.mint(token, payer(), units);
        return CHAIN.transferToken(payer(), token, deposit, units);
    }

    private static String payer() {
        return CHAIN.accounts().get(1);
    }

    private static String lower(String address) {
        return address.toLowerCase(Locale.ROOT);
    }

    private static Instant inAnHour() {
        return Instant.now().plusSeconds(3600);
    }
}
