package dev.cryptopay.chainwatcher.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cryptopay.auth.internal.InternalCallers;
import dev.cryptopay.auth.internal.InternalHeaders;
import dev.cryptopay.auth.internal.InternalRequest;
import dev.cryptopay.auth.internal.InternalTokenOutcome;
import dev.cryptopay.auth.internal.InternalTokenSigner;
import dev.cryptopay.auth.internal.InternalTokenVerification;
import dev.cryptopay.auth.internal.InternalTokenVerifier;
import dev.cryptopay.auth.keys.VerificationKey;
import dev.cryptopay.chainwatcher.ChainWatcherTestBase;
import dev.cryptopay.chainwatcher.scan.DetectedTransfer;
import dev.cryptopay.testsupport.InternalTestKeys;
import dev.cryptopay.testsupport.webhook.WebhookReceiver.Received;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * A report is signed as the caller chain-watcher, with its own private key, for the one service that receives it and
 * over the exact bytes that service gets: payment-links-service's transfer reports and subscriptions-service's
 * contract log reports alike.
 */
class ReportTokenTest extends ChainWatcherTestBase {

    @Autowired
    private PaymentLinksReporter reporter;

    @Autowired
    private SubscriptionsReporter subscriptions;

    @Test
    void aReportCarriesTheChainWatchersOwnTokenOverTheExactBodySent() {
        UUID link = UUID.randomUUID();
        String payer = freshAddress();
        DetectedTransfer transfer = new DetectedTransfer(
                UUID.randomUUID(),
                31337,
                "0x" + "ab".repeat(32),
                0,
                DetectedTransfer.IN,
                10,
                "0x" + "cd".repeat(32),
                link,
                "Local dev chain",
                "0xe7f1725e7734ce288f8367e1bb143e90bb3f0512",
                payer,
                freshAddress(),
                BigInteger.valueOf(2_500_000),
                6,
                "pending",
                1,
                false,
                null,
                null,
                null,
                null);

        assertThat(reporter.report(link, transfer.report(3)).block()).isEqualTo(ReportOutcome.ACKNOWLEDGED);

        String path = "/internal/payment_links/" + link + "/transactions";
        Received call = PAYMENT_LINKS.received().stream()
                .filter(received -> received.path().equals(path))
                .findFirst()
                .orElseThrow();
        assertSignedByTheChainWatcher(call, path, InternalCallers.PAYMENT_LINKS_SERVICE);
        assertThat(call.bodyText()).contains("\"crypto_amount\":2.5", "\"required_confirmations\":3");
        assertThat(call.bodyText())
                .as("the members payment-links-service reads, in this order")
                .isEqualTo("{\"network\":\"Local dev chain\",\"tx_hash\":\"0x" + "ab".repeat(32) + "\","
                        + "\"log_index\":0,\"token_contract\":\"0xe7f1725e7734ce288f8367e1bb143e90bb3f0512\","
                        + "\"payer_address\":\"" + payer + "\",\"crypto_amount\":2.5,\"status\":\"pending\","
                        + "\"confirmations\":1,\"required_confirmations\":3}");
    }

    @Test
    void aContractLogReportCarriesTheChainWatchersOwnTokenOverTheExactBodySent() {
        String tx = "0x" + UUID.randomUUID().toString().replace("-", "").repeat(2);
        ContractLogReport log = new ContractLogReport(
                31337,
                "0x5fbdb2315678afecb367f032d93f642f64180aa3",
                tx,
                2,
                123,
                "0x" + "cd".repeat(32),
                Instant.parse("2026-11-26T10:00:00Z"),
                List.of("0x" + "01".repeat(32), "0x" + "02".repeat(32)),
                "0x" + "00".repeat(31) + "2a",
                3,
                false);

        assertThat(subscriptions.report(log).block()).isEqualTo(ReportOutcome.ACKNOWLEDGED);

        Received call = SUBSCRIPTIONS.received().stream()
                .filter(received -> received.bodyText().contains(tx))
                .findFirst()
                .orElseThrow();
        assertThat(call.path()).isEqualTo("/internal/chain/logs");
        assertSignedByTheChainWatcher(call, "/internal/chain/logs", InternalCallers.SUBSCRIPTIONS_SERVICE);
        assertThat(call.bodyText())
                .as("the members subscriptions-service reads, in this order")
                .isEqualTo("{\"chain_id\":31337,\"contract\":\"0x5fbdb2315678afecb367f032d93f642f64180aa3\","
                        + "\"tx_hash\":\"" + tx + "\",\"log_index\":2,\"block_number\":123,"
                        + "\"block_hash\":\"0x" + "cd".repeat(32) + "\",\"block_time\":\"2026-11-26T10:00:00Z\","
                        + "\"topics\":[\"0x" + "01".repeat(32) + "\",\"0x" + "02".repeat(32) + "\"],"
                        + "\"data\":\"0x" + "00".repeat(31) + "2a\",\"confirmations\":3,\"removed\":false}");
    }

    /**
     * The call carries a valid token of chain-watcher (its own key) for {@code service} alone, over its method, path and
     * body; no merchant.
     */
    private void assertSignedByTheChainWatcher(Received call, String path, String service) {
        String token = call.header(InternalHeaders.INTERNAL_AUTH);
        assertThat(token).startsWith("v3.chain-watcher." + service + ".");
        assertThat(call.header(InternalHeaders.MERCHANT_ID)).isNull();
        Map<String, List<VerificationKey>> watcher = Map.of(
                InternalCallers.CHAIN_WATCHER,
                List.of(VerificationKey.parse(InternalTestKeys.CHAIN_WATCHER_PUBLIC_KEY)));
        InternalTokenVerifier receiver = new InternalTokenVerifier(service, watcher);
        assertThat(receiver.verify(
                        token,
                        null,
                        null,
                        InternalRequest.of("POST", path, null, call.body()),
                        clock.instant(),
                        InternalTokenSigner.DEFAULT_MAX_AGE))
                .isEqualTo(new InternalTokenVerification(InternalTokenOutcome.VALID, InternalCallers.CHAIN_WATCHER));
        assertThat(receiver.verify(
                                token,
                                null,
                                null,
                                InternalRequest.of(
                                        "POST", path, null, (call.bodyText() + " ").getBytes(StandardCharsets.UTF_8)),
                                clock.instant(),
                                InternalTokenSigner.DEFAULT_MAX_AGE)
                        .outcome())
                .as("bound to the exact bytes")
                .isNotEqualTo(InternalTokenOutcome.VALID);
        String other = service.equals(InternalCallers.PAYMENT_LINKS_SERVICE)
                ? InternalCallers.SUBSCRIPTIONS_SERVICE
                : InternalCallers.PAYMENT_LINKS_SERVICE;
        assertThat(new InternalTokenVerifier(other, watcher)
                        .precheck(token, clock.instant(), InternalTokenSigner.DEFAULT_MAX_AGE)
                        .outcome())
                .as("worthless at the other service")
                .isEqualTo(InternalTokenOutcome.WRONG_AUDIENCE);
    }
}
