package dev.cryptopay.chainwatcher.scan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cryptopay.chainwatcher.config.ChainWatcherProperties;
import dev.cryptopay.testsupport.chain.DevTokens;
import java.math.BigInteger;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import tools.jackson.databind.JsonNode;

/** Detection, confirmations, reorganisations, RPC outages and several instances, on a real anvil chain. */
class ChainWatcherTest extends ScannerTestBase {

    private static final DevTokens USDC = DevTokens.USDC;

    @Test
    void aTokenPaymentIsReportedPendingThenConfirmedAfterEnoughBlocks() {
        String deposit = freshAddress();
        UUID link = announce(deposit, USDC.address(), 6, "2500000", inAnHour());
        String payer = payer();
        scan();

        String tx = pay(payer, USDC, deposit, "2.5");
        scan();
        assertThat(reports(link)).hasSize(1);
        JsonNode pending = reports(link).get(0);
        assertThat(pending.get("status").asString()).isEqualTo("pending");
        assertThat(pending.get("tx_hash").asString()).isEqualTo(tx);
        assertThat(pending.get("network").asString()).isEqualTo("Local dev chain");
        assertThat(pending.get("payer_address").asString()).isEqualTo(payer.toLowerCase());
        assertThat(pending.get("crypto_amount").decimalValue()).isEqualByComparingTo("2.5");
        assertThat(pending.get("confirmations").asInt()).isEqualTo(1);
        assertThat(pending.get("required_confirmations").asInt()).isEqualTo(3);

        CHAIN.mine(1);
        scan();
        assertThat(reports(link))
                .extracting(report -> report.get("status").asString() + "/"
                        + report.get("confirmations").asInt())
                .containsExactly("pending/1", "pending/2");

        CHAIN.mine(1);
        scan();
        CHAIN.mine(5);
        scan();
        assertThat(reports(link))
                .extracting(report -> report.get("status").asString() + "/"
                        + report.get("confirmations").asInt())
                .containsExactly("pending/1", "pending/2", "confirmed/3");
    }

    @Test
    void reportsUnderpaymentsOverpaymentsAndEachPaymentToAMultiUseAddressExactly() {
        String under = freshAddress();
        String over = freshAddress();
        String multi = freshAddress();
        UUID underLink = announce(under, USDC.address(), 6, "10000000", inAnHour());
        UUID overLink = announce(over, USDC.address(), 6, "10000000", inAnHour());
        UUID multiLink = announce(multi, USDC.address(), 6, "1000000", inAnHour());
        String payer = payer();

        pay(payer, USDC, under, "9.999999");
        pay(payer, USDC, over, "10.000001");
        String first = pay(payer, USDC, multi, "1");
        String second = pay(payer(), USDC, multi, "1");
        CHAIN.mine(3);
        scan();

        assertThat(confirmedAmount(underLink)).isEqualByComparingTo("9.999999");
        assertThat(confirmedAmount(overLink)).isEqualByComparingTo("10.000001");
        assertThat(reports(multiLink).stream()
                        .filter(report -> report.get("status").asString().equals("confirmed"))
                        .map(report -> report.get("tx_hash").asString()))
                .containsExactlyInAnyOrder(first, second);
    }

    @Test
    void aNativePaymentALatePaymentAndAnotherTokenAreReportedEachInItsOwnAsset() {
        String nativeDeposit = freshAddress();
        String lateDeposit = freshAddress();
        UUID nativeLink = announce(nativeDeposit, null, 18, "250000000000000000", inAnHour());
        UUID lateLink = announce(
                lateDeposit, USDC.address(), 6, "5000000", Instant.now().minusSeconds(60));

        String nativeTx = CHAIN.sendNative(payer(), nativeDeposit, new BigInteger("250000000000000000"));
        String wrongTx = pay(payer(), DevTokens.USDT, lateDeposit, "5"); // another token: reported as it is
        String lateTx = pay(payer(), USDC, lateDeposit, "5");
        CHAIN.mine(3);
        scan();

        // Confirmed within one pass, yet reported pending first: the merchant always hears of the detection.
        assertThat(reports(nativeLink))
                .extracting(report -> report.get("status").asString() + " "
                        + report.get("tx_hash").asString())
                .containsExactly("pending " + nativeTx, "confirmed " + nativeTx);
        assertThat(confirmedAmount(nativeLink)).isEqualByComparingTo("0.25");
        assertThat(reports(lateLink))
                .extracting(report -> report.get("tx_hash").asString())
                .containsOnly(wrongTx, lateTx);
        assertThat(reports(lateLink))
                .filteredOn(report -> report.get("tx_hash").asString().equals(wrongTx))
                .allSatisfy(report -> {
                    assertThat(report.get("token_contract").asString())
                            .isEqualTo(DevTokens.USDT.address().toLowerCase());
                    assertThat(report.get("crypto_amount").decimalValue()).isEqualByComparingTo("5");
                });
        assertThat(reports(nativeLink)).allSatisfy(report -> {
            assertThat(report.get("token_contract").isNull()).isTrue();
            assertThat(report.get("log_index").asInt()).isEqualTo(-1);
        });
    }

    @Test
    void aPaymentMadeBeforeTheWatcherLearnedOfTheLinkIsFound() {
        String deposit = freshAddress();
        scan();
        String tx = pay(payer(), USDC, deposit, "3");
        CHAIN.mine(1);
        scan(); // the cursor moves past the payment's block before the event arrives

        UUID link = announce(deposit, USDC.address(), 6, "3000000", inAnHour());
        scan();

        assertThat(reports(link))
                .extracting(report -> report.get("tx_hash").asString())
                .contains(tx);
    }

    @Test
    void aReorganisationThatRemovesAReportedTransferReportsItFailed() {
        String deposit = freshAddress();
        UUID link = announce(deposit, USDC.address(), 6, "1000000", inAnHour());
        String payer = payer();
        scan();
        String tx = pay(payer, USDC, deposit, "1");
        scan();
        assertThat(reports(link))
                .extracting(report -> report.get("status").asString())
                .containsExactly("pending");

        CHAIN.reorg(1); // replaces the payment's block with an empty one
        CHAIN.mine(1);
        scan();

        assertThat(reports(link))
                .extracting(report -> report.get("status").asString())
                .containsExactly("pending", "failed");
        assertThat(reports(link).get(1).get("tx_hash").asString()).isEqualTo(tx);
        assertThat(CHAIN.receipt(tx)).isEmpty();
    }

    @Test
    void anRpcOutageSkipsNoBlock() {
        String deposit = freshAddress();
        UUID link = announce(deposit, USDC.address(), 6, "4000000", inAnHour());
        scan();
        String tx = pay(payer(), USDC, deposit, "4");
        CHAIN.pause();
        try {
            assertThatThrownBy(() -> scanners.scanOnce().block(Duration.ofSeconds(30)))
                    .isInstanceOf(RuntimeException.class);
        } finally {
            CHAIN.resume();
        }
        CHAIN.mine(5);
        scan();

        assertThat(reports(link))
                .extracting(report -> report.get("tx_hash").asString())
                .contains(tx);
        assertThat(reports(link))
                .extracting(report -> report.get("status").asString())
                .contains("confirmed");
    }

    @Test
    void twoInstancesReportEachTransferOnce() {
        String deposit = freshAddress();
        UUID link = announce(deposit, USDC.address(), 6, "6000000", inAnHour());
        pay(payer(), USDC, deposit, "6");
        CHAIN.mine(3);
        ChainWatcherProperties.Network network = properties.networks().get(0);
        List<ChainScanner> instances = List.of("a", "b").stream()
                .map(name -> scanner(network, "test-instance-" + name + "-" + UUID.randomUUID()))
                .toList();
        try {
            for (int round = 0; round < 5; round++) {
                Flux.fromIterable(instances).flatMap(ChainScanner::pass).then().block();
            }
            // The lease holder did the work; once it lapses the other one may continue, but never report twice.
            clock.set(clock.instant().plus(properties.leaseDuration()).plusSeconds(1));
            Flux.fromIterable(instances).flatMap(ChainScanner::pass).then().block();
        } finally {
            instances.forEach(ChainScanner::close);
            clock.set(Instant.now());
            // Hand the chain back to the application's own scanner for the other tests.
            releaseLease();
        }
        scan();

        assertThat(reports(link))
                .extracting(report -> report.get("status").asString())
                .containsExactly("pending", "confirmed");
    }

    @Test
    void anEventDeliveredTwiceWatchesTheAddressOnceAndOtherEventsAreIgnored() {
        String deposit = freshAddress();
        UUID link = announce(deposit, USDC.address(), 6, "1000000", inAnHour());
        publish(
                link,
                "payment.created",
                Map.of(
                        "id",
                        link.toString(),
                        "network",
                        "Local dev chain",
                        "deposit_address",
                        deposit,
                        "chain_id",
                        31337,
                        "token_contract",
                        USDC.address(),
                        "decimals",
                        6,
                        "amount_base_units",
                        "999",
                        "expires_at",
                        inAnHour().toString()));
        UUID other = UUID.randomUUID();
        publish(other, "payment.completed", Map.of("id", other.toString(), "deposit_address", freshAddress()));
        UUID unknownChain = UUID.randomUUID();
        publish(
                unknownChain,
                "payment.created",
                Map.of(
                        "id", unknownChain.toString(),
                        "deposit_address", freshAddress(),
                        "chain_id", 1,
                        "expires_at", inAnHour().toString()));
        UUID marker = announce(freshAddress(), USDC.address(), 6, "1", inAnHour()); // consumed after the others

        assertThat(marker).isNotNull();
        assertThat(database.sql("SELECT amount_base_units FROM watched_address WHERE payment_link_id = :id")
                        .bind("id", link)
                        .map(row -> row.get("amount_base_units", java.math.BigDecimal.class))
                        .all()
                        .collectList()
                        .block())
                .singleElement()
                .satisfies(amount -> assertThat(amount).isEqualByComparingTo("1000000"));
        assertThat(watched(other)).isFalse();
        assertThat(watched(unknownChain)).isFalse();
    }

    @Test
    void anEventWithoutAUsableCreationTimeIsStillWatchedAndSearchedOverTheWholeLookBack() {
        String deposit = freshAddress();
        scan();
        String tx = pay(payer(), USDC, deposit, "2");
        scan();
        UUID link = UUID.randomUUID();
        String event = json.writeValueAsString(Map.of(
                "id",
                UUID.randomUUID().toString(),
                "type",
                "payment.created",
                "created_at",
                "not a time",
                "data",
                Map.of(
                        "id",
                        link.toString(),
                        "network",
                        "Local dev chain",
                        "deposit_address",
                        deposit,
                        "chain_id",
                        31337,
                        "token_contract",
                        USDC.address(),
                        "decimals",
                        6,
                        "amount_base_units",
                        "2000000",
                        "expires_at",
                        inAnHour().toString())));
        dev.cryptopay.testsupport.TestKafka.send("payment-links.events", link.toString(), event);
        await("link " + link + " watched", () -> watched(link));
        scan();

        assertThat(reports(link))
                .extracting(report -> report.get("tx_hash").asString())
                .contains(tx);
    }

    private java.math.BigDecimal confirmedAmount(UUID link) {
        return reports(link).stream()
                .filter(report -> report.get("status").asString().equals("confirmed"))
                .map(report -> report.get("crypto_amount").decimalValue())
                .findFirst()
                .orElseThrow(() -> new AssertionError("no confirmed report for " + link + ": " + reports(link)));
    }

    /** A funded dev account that pays (account 1; the deployer is account 0). */
    private static String payer() {
        return CHAIN.accounts().get(1);
    }

    private static String pay(String payer, DevTokens token, String deposit, String amount) {
        BigInteger units = units(amount, token.decimals());
        CHAIN.mint(token, payer, units);
        return CHAIN.transferToken(payer, token, deposit, units);
    }

    private static Instant inAnHour() {
        return Instant.now().plusSeconds(3600);
    }
}
