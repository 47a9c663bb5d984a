package dev.cryptopay.paymentlinks.transaction;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cryptopay.auth.internal.MerchantIdentity;
import dev.cryptopay.paymentlinks.PaymentLinksTestBase;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.WebTestClient;

/**
 * The routes that record what a link was paid accept only the chain watcher's own token; the gateway's (even for the
 * link's merchant) is refused with 403, and the chain watcher's token opens no merchant or public route.
 */
class TransactionCallersTest extends PaymentLinksTestBase {

    private static final String REPORT = "{\"network\":\"Ethereum\",\"tx_hash\":\"0x0a\"," + transfer(0, TEST_USDC)
            + "," + "\"payer_address\":\"0xPAYER\",\"crypto_amount\":10,\"status\":\"pending\",\"confirmations\":1}";

    private static void isForbiddenForThisCaller(WebTestClient.ResponseSpec response) {
        response.expectStatus()
                .isForbidden()
                .expectHeader()
                .contentType(MediaType.APPLICATION_PROBLEM_JSON)
                .expectBody()
                .jsonPath("$.code")
                .isEqualTo("internal_caller_not_allowed");
    }

    private String newLink(MerchantIdentity merchant) {
        return createOk(merchant, "{\"payment_name\":\"Ticket\",\"amount\":10,\"currency\":\"USDC\"}")
                .get("id")
                .asString();
    }

    @Test
    void aGatewayTokenCannotReportATransactionOrAnOutgoingTransfer() {
        MerchantIdentity merchant = newMerchant();
        String id = newLink(merchant);
        String transactions = "/internal/payment_links/" + id + "/transactions";

        isForbiddenForThisCaller(as(merchant, HttpMethod.POST, transactions)
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(REPORT)
                .exchange());
        isForbiddenForThisCaller(as(null, HttpMethod.POST, transactions)
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(REPORT)
                .exchange());
        isForbiddenForThisCaller(as(null, HttpMethod.POST, "/internal/payment_links/" + id + "/outgoing_transfers")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(outgoing(
                        "0x0a",
                        "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
                        "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC",
                        "1",
                        "confirmed"))
                .exchange());
        assertThat(status(merchant, id)).as("nothing was recorded").isEqualTo("pending");

        reportTransaction(id, REPORT).expectStatus().isCreated();
        assertThat(status(merchant, id)).isEqualTo("processing");
    }

    @Test
    void theChainWatchersTokenOpensNoMerchantOrPublicRoute() {
        MerchantIdentity merchant = newMerchant();
        String id = newLink(merchant);

        isForbiddenForThisCaller(
                asChainWatcher(HttpMethod.GET, "/payment_links/" + id).exchange());
        isForbiddenForThisCaller(
                asChainWatcher(HttpMethod.DELETE, "/payment_links/" + id).exchange());
        isForbiddenForThisCaller(asChainWatcher(HttpMethod.POST, "/payment_links/" + id + "/refunds")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue("{}")
                .exchange());
        isForbiddenForThisCaller(asChainWatcher(HttpMethod.GET, "/payment_links/" + id + "/refunds")
                .exchange());
        isForbiddenForThisCaller(
                asChainWatcher(HttpMethod.GET, "/payment_links/currencies").exchange());
        isForbiddenForThisCaller(asChainWatcher(HttpMethod.GET, "/checkout/payment_link?payment_id=" + id)
                .exchange());
        assertThat(status(merchant, id)).as("still active").isEqualTo("pending");
    }

    private String status(MerchantIdentity merchant, String id) {
        return read(get(merchant, "/payment_links/" + id).expectStatus().isOk())
                .get("data")
                .get("payment_status")
                .asString();
    }
}
