package dev.cryptopay.chainwatcher.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cryptopay.auth.internal.InternalCallers;
import dev.cryptopay.auth.internal.InternalHeaders;
import dev.cryptopay.auth.internal.InternalIdentityToken;
import dev.cryptopay.auth.internal.InternalRequest;
import dev.cryptopay.auth.internal.InternalTokenOutcome;
import dev.cryptopay.auth.internal.InternalTokenVerification;
import dev.cryptopay.auth.internal.InternalTokenVerifier;
import dev.cryptopay.chainwatcher.ChainWatcherTestBase;
import dev.cryptopay.chainwatcher.scan.DetectedTransfer;
import dev.cryptopay.testsupport.webhook.WebhookReceiver.Received;
import java.math.BigInteger;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/** A report is signed as the caller chain-watcher, with its own secret, over the exact bytes payment-links receives. */
class ReportTokenTest extends ChainWatcherTestBase {

    @Autowired
    private PaymentLinksReporter reporter;

    @Test
    void aReportCarriesTheChainWatchersOwnTokenOverTheExactBodySent() {
        UUID link = UUID.randomUUID();
        String payer = freshAddress();
        DetectedTransfer transfer = new DetectedTransfer(
                UUID.randomUUID(),
                31337,
                "0x" + "ab".repeat(32),
                0,
                10,
                "0x" + "cd".repeat(32),
                link,
                "Local dev chain",
                payer,
                BigInteger.valueOf(2_500_000),
                6,
                "pending",
                1,
                false,
                null,
                null);

        assertThat(reporter.report(link, transfer.report(3)).block()).isTrue();

        String path = "/internal/payment_links/" + link + "/transactions";
        Received call = PAYMENT_LINKS.received().stream()
                .filter(received -> received.path().equals(path))
                .findFirst()
                .orElseThrow();
        String token = call.header(InternalHeaders.INTERNAL_AUTH);
        assertThat(token).startsWith("v2.chain-watcher.");
        assertThat(call.header(InternalHeaders.MERCHANT_ID)).isNull();
        InternalTokenVerifier paymentLinks = new InternalTokenVerifier(
                List.of(InternalIdentityToken.fromSecret(InternalCallers.CHAIN_WATCHER, CHAIN_WATCHER_SECRET)));
        assertThat(paymentLinks.verify(
                        token,
                        null,
                        InternalRequest.of("POST", path, null, call.body()),
                        clock.instant(),
                        InternalIdentityToken.DEFAULT_MAX_AGE))
                .isEqualTo(new InternalTokenVerification(InternalTokenOutcome.VALID, InternalCallers.CHAIN_WATCHER));
        assertThat(call.bodyText()).contains("\"crypto_amount\":2.5", "\"required_confirmations\":3");
        assertThat(call.bodyText())
                .as("the members payment-links-service reads, in this order")
                .isEqualTo("{\"network\":\"Local dev chain\",\"tx_hash\":\"0x" + "ab".repeat(32) + "\","
                        + "\"payer_address\":\"" + payer + "\",\"crypto_amount\":2.5,\"status\":\"pending\","
                        + "\"confirmations\":1,\"required_confirmations\":3}");
    }
}
