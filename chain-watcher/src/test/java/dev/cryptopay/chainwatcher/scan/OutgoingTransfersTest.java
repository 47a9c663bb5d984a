package dev.cryptopay.chainwatcher.scan;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cryptopay.chainwatcher.ChainWatcherTestBase;
import dev.cryptopay.chainwatcher.watch.WatchRepository;
import dev.cryptopay.chainwatcher.watch.WatchedAddress;
import dev.cryptopay.testsupport.chain.DevTokens;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.web3j.protocol.core.Request;
import org.web3j.protocol.core.methods.response.Log;
import org.web3j.protocol.core.methods.response.VoidResponse;
import org.web3j.protocol.http.HttpService;
import tools.jackson.databind.JsonNode;

/**
 * Transfers out of deposit addresses (refunds, sweeps), on a real anvil chain: each is reported to the link's
 * outgoing-transfers route, a transfer between two watched addresses is reported both ways, a {@code transfer.initiated}
 * event brings back a watch that had ended, and a reorganisation that took a reported one away reports it failed. The
 * deposit addresses are fresh addresses anvil lets the tests send from ({@code anvil_impersonateAccount}).
 */
class OutgoingTransfersTest extends ChainWatcherTestBase {

    @Autowired
    private WatchRepository watches;

    private static final DevTokens USDC = DevTokens.USDC;

    @Test
    void tokenAndNativeTransfersOutOfADepositAddressAreReportedToTheOutgoingRoute() {
        String deposit = spendable();
        String otherDeposit = freshAddress();
        UUID link = announce(deposit, USDC.address(), 6, "5000000", inAnHour());
        UUID otherLink = announce(otherDeposit, USDC.address(), 6, "2000000", inAnHour());
        scan();
        CHAIN.mint(USDC, deposit, units("5", 6)); // the payment, from the zero address

        // A refund to another watched deposit address, and a sweep of the native coin.
        String token = CHAIN.transferToken(deposit, USDC, otherDeposit, units("2", 6));
        String nativeCoin = CHAIN.sendNative(deposit, otherDeposit, new BigInteger("250000000000000000"));
        scan();
        CHAIN.mine(3);
        scan();

        Log log = CHAIN.receipt(token).orElseThrow().getLogs().get(0);
        List<JsonNode> outgoing = outgoingReports(link);
        assertThat(outgoing.get(0).propertyNames())
                .as("the members payment-links-service reads, in this order")
                .containsExactly(
                        "network",
                        "tx_hash",
                        "log_index",
                        "token_contract",
                        "from_address",
                        "to_address",
                        "crypto_amount",
                        "status",
                        "confirmations",
                        "required_confirmations");
        assertThat(outgoing)
                .extracting(OutgoingTransfersTest::summary)
                .containsExactly(
                        token + " " + log.getLogIndex() + " " + lower(USDC.address()) + " " + deposit + " "
                                + otherDeposit + " 2 pending",
                        nativeCoin + " -1 null " + deposit + " " + otherDeposit + " 0.25 pending",
                        token + " " + log.getLogIndex() + " " + lower(USDC.address()) + " " + deposit + " "
                                + otherDeposit + " 2 confirmed",
                        nativeCoin + " -1 null " + deposit + " " + otherDeposit + " 0.25 confirmed");
        assertThat(outgoing.get(2).get("confirmations").asInt()).isEqualTo(3);
        assertThat(outgoing.get(2).get("required_confirmations").asInt()).isEqualTo(3);

        assertThat(reports(link))
                .as("the payment is the link's only incoming transfer")
                .extracting(report -> report.get("tx_hash").asString())
                .doesNotContain(token, nativeCoin)
                .isNotEmpty();
        assertThat(reports(otherLink))
                .as("a transfer between two watched addresses is incoming for the other link")
                .extracting(report -> report.get("tx_hash").asString() + " "
                        + report.get("status").asString())
                .containsExactly(
                        token + " pending", nativeCoin + " pending", token + " confirmed", nativeCoin + " confirmed");
        assertThat(outgoingReports(otherLink)).isEmpty();
    }

    @Test
    void aTransferInitiatedEventWatchesAForgottenAddressAgainUntilTheRefundExpires() {
        String deposit = spendable();
        Instant expired = clock.instant().minus(Duration.ofHours(3)); // its watch ended an hour and more ago
        UUID link = announce(deposit, USDC.address(), 6, "1000000", expired);
        CHAIN.mint(USDC, deposit, units("3", 6));
        scan();
        assertThat(watched(link)).as("forgotten").isFalse();
        CHAIN.transferToken(deposit, USDC, freshAddress(), units("1", 6));
        scan();
        assertThat(outgoingReports(link)).as("not watched: not seen").isEmpty();

        Instant refundExpires = clock.instant().plus(Duration.ofHours(72));
        initiated(link, deposit, refundExpires);
        await("link " + link + " watched again", () -> watched(link));
        assertThat(watchUntil(link)).isEqualTo(refundExpires.plus(Duration.ofHours(1))); // + the late window
        scan();
        String refund = CHAIN.transferToken(deposit, USDC, freshAddress(), units("2", 6));
        scan();

        assertThat(outgoingReports(link))
                .extracting(report -> report.get("tx_hash").asString())
                .contains(refund);
    }

    @Test
    void aTransferInitiatedEventExtendsAWatchEndingSoonerAndNeverShortensOne() {
        String deposit = freshAddress();
        UUID link =
                announce(deposit, USDC.address(), 6, "1000000", clock.instant().plus(Duration.ofMinutes(5)));
        Instant refundExpires = clock.instant().plus(Duration.ofHours(72));

        initiated(link, deposit, refundExpires);
        await("watch extended", () -> watchUntil(link).equals(refundExpires.plus(Duration.ofHours(1))));

        WatchedAddress sooner = watches.active(31337, clock.instant())
                .filter(watch -> watch.paymentLinkId().equals(link))
                .blockFirst();
        Instant earlier = clock.instant().plus(Duration.ofHours(2));
        assertThat(watches.renew(
                                new WatchedAddress(
                                        link,
                                        31337,
                                        sooner.network(),
                                        deposit,
                                        sooner.tokenContract(),
                                        6,
                                        BigInteger.ONE,
                                        earlier,
                                        earlier,
                                        false,
                                        clock.instant()),
                                clock.instant())
                        .block())
                .isFalse();
        assertThat(watchUntil(link)).as("never shortened").isEqualTo(refundExpires.plus(Duration.ofHours(1)));
    }

    @Test
    void aReportedOutgoingTransferTakenAwayByAReorganisationIsReportedFailed() {
        String deposit = spendable();
        UUID link = announce(deposit, USDC.address(), 6, "1000000", inAnHour());
        CHAIN.mint(USDC, deposit, units("1", 6));
        scan();
        String tx = CHAIN.transferToken(deposit, USDC, freshAddress(), units("1", 6));
        scan();
        assertThat(outgoingReports(link))
                .extracting(report -> report.get("status").asString())
                .containsExactly("pending");

        CHAIN.reorg(1); // replaces the transfer's block with an empty one
        CHAIN.mine(1);
        scan();

        assertThat(outgoingReports(link))
                .extracting(report -> report.get("tx_hash").asString() + " "
                        + report.get("status").asString())
                .containsExactly(tx + " pending", tx + " failed");
        assertThat(CHAIN.receipt(tx)).isEmpty();
    }

    /** A fresh address the tests can send from (impersonated by anvil), with 10 ETH for gas. */
    private static String spendable() {
        String address = freshAddress();
        anvil("anvil_impersonateAccount", address);
        anvil("anvil_setBalance", address, "0x8ac7230489e80000");
        return address;
    }

    private static void anvil(String method, Object... params) {
        try {
            VoidResponse response =
                    new Request<>(method, List.of(params), new HttpService(CHAIN.rpcUrl()), VoidResponse.class).send();
            assertThat(response.getError()).as(method).isNull();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Announces a refund paid from the link's deposit address the way payment-links-service does. */
    private void initiated(UUID link, String deposit, Instant expiresAt) {
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("refund_id", UUID.randomUUID().toString());
        data.put("payment_link_id", link.toString());
        data.put("transaction_id", null);
        data.put("status", "initiated");
        data.put("amount", "2");
        data.put("asset", "USDC");
        data.put("network", "Local dev chain");
        data.put("chain_id", 31337);
        data.put("token_contract", lower(USDC.address()));
        data.put("decimals", 6);
        data.put("amount_base_units", "2000000");
        data.put("deposit_address", deposit);
        data.put("to_address", freshAddress());
        data.put("expires_at", expiresAt.toString());
        publish(link, "transfer.initiated", data);
    }

    private Instant watchUntil(UUID link) {
        return database.sql("SELECT watch_until FROM watched_address WHERE payment_link_id = :id")
                .bind("id", link)
                .map(row -> row.get("watch_until", OffsetDateTime.class).toInstant())
                .one()
                .blockOptional()
                .orElse(Instant.EPOCH);
    }

    /** "tx log token from to amount status". */
    private static String summary(JsonNode report) {
        return report.get("tx_hash").asString() + " " + report.get("log_index").asInt() + " "
                + (report.get("token_contract").isNull()
                        ? "null"
                        : report.get("token_contract").asString()) + " "
                + report.get("from_address").asString() + " "
                + report.get("to_address").asString() + " "
                + report.get("crypto_amount")
                        .decimalValue()
                        .stripTrailingZeros()
                        .toPlainString() + " "
                + report.get("status").asString();
    }

    private static String lower(String address) {
        return address.toLowerCase(Locale.ROOT);
    }

    private static Instant inAnHour() {
        return Instant.now().plusSeconds(3600);
    }
}
