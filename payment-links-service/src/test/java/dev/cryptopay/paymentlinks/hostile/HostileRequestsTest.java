package dev.cryptopay.paymentlinks.hostile;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cryptopay.auth.internal.InternalCallers;
import dev.cryptopay.auth.internal.MerchantIdentity;
import dev.cryptopay.paymentlinks.PaymentLinksTestBase;
import dev.cryptopay.paymentlinks.receiving.TestKeys;
import dev.cryptopay.testsupport.GatewayForwarding;
import dev.cryptopay.testsupport.InternalTestKeys;
import dev.cryptopay.testsupport.hostile.HostileRequests;
import dev.cryptopay.testsupport.hostile.MerchantRows;
import java.net.URI;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.http.HttpMethod;

/**
 * The shared hostile-request corpus (test-support {@code hostile/}) against every route of the service: each answer
 * is a 2xx or a 4xx within the time limit, and a 4xx leaves the merchant's rows as they were.
 */
class HostileRequestsTest extends PaymentLinksTestBase {

    @LocalServerPort
    int port;

    private static final String VALID_LINK = "{\"payment_name\":\"Tea\",\"amount\":3,\"currency\":\"USDC\","
            + "\"description\":\"Green\",\"expires_at\":\"2099-01-01T00:00:00Z\",\"max_uses\":2,"
            + "\"customer_email\":\"a@example.com\",\"order_id\":\"o-1\",\"success_url\":\"https://example.com/ok\","
            + "\"auto_fill\":true,\"webhook_metadata\":{\"k\":\"v\"},"
            + "\"cart\":{\"items\":[{\"name\":\"Tea\",\"quantity\":1,\"unit_price\":3,\"total\":3}],"
            + "\"subtotal\":3,\"tax\":0,\"total\":3}}";

    @Test
    void merchantRoutesAnswerHostileRequestsWithA4xxAndChangeNothing() {
        MerchantIdentity merchant = newMerchant();
        String link = createOk(merchant, "{\"payment_name\":\"Tea\",\"amount\":3,\"currency\":\"USDC\"}")
                .get("id")
                .asString();

        HostileRequests.Report report = HostileRequests.to((method, uri) -> asEncoded(merchant, method, uri))
                .state(MerchantRows.of("payment_links", merchant.merchantId()))
                .write(HttpMethod.POST, "/payment_links", VALID_LINK)
                .read(
                        "/payment_links",
                        "page",
                        "limit",
                        "status",
                        "is_active",
                        "currency",
                        "min_amount",
                        "max_amount",
                        "created_from",
                        "created_to",
                        "search",
                        "sort_by",
                        "sort_order")
                .ids(HttpMethod.GET, "/payment_links/{id}", null)
                .ids(HttpMethod.DELETE, "/payment_links/{id}", null)
                .write(
                        HttpMethod.PUT,
                        "/payment_links/receiving_key",
                        "{\"xpub\":\"" + TestKeys.wallet().xpub() + "\"}")
                .write(HttpMethod.PUT, "/payment_links/deposit_settings", "{\"deposit_webhook_minimum_usd\":1}")
                .read("/payment_links/deposit_settings")
                .read("/payment_links/" + link)
                .read("/payment_links/currencies")
                .read(
                        "/payment_links/transactions",
                        "page",
                        "limit",
                        "status",
                        "late",
                        "counted",
                        "created_from",
                        "created_to")
                .read("/payment_links/totals", "created_from", "created_to")
                .write(
                        HttpMethod.POST,
                        "/payment_links/" + link + "/refunds",
                        "{\"amount\":1,\"address\":\"0x70997970C51812dc3A010C7d01b50e0d17dc79C8\","
                                + "\"transaction_id\":\"" + java.util.UUID.randomUUID() + "\"}")
                .ids(HttpMethod.POST, "/payment_links/{id}/refunds", "{}")
                .read("/payment_links/" + link + "/refunds", "page", "limit")
                .run();

        assertThat(report.cases()).isGreaterThan(500);
        assertThat(report.clientErrors()).isGreaterThan(report.cases() / 2);
    }

    @Test
    void theInternalRoutesAnswerHostileReportsWithA4xxAndChangeNothing() {
        MerchantIdentity merchant = newMerchant();
        String link = createOk(merchant, "{\"payment_name\":\"Tea\",\"amount\":3,\"currency\":\"USDC\"}")
                .get("id")
                .asString();

        GatewayForwarding chainWatcher =
                new GatewayForwarding(InternalTestKeys.chainWatcher(), InternalCallers.PAYMENT_LINKS_SERVICE, clock);
        HostileRequests.Report report = HostileRequests.to((method, uri) ->
                        chainWatcher.as(web, null, method, URI.create("http://127.0.0.1:" + port + uri)))
                .state(MerchantRows.of("payment_links", merchant.merchantId()))
                .write(
                        HttpMethod.POST,
                        "/internal/payment_links/" + link + "/transactions",
                        "{\"network\":\"Ethereum\",\"tx_hash\":\"0xh1\"," + transfer(0, TEST_USDC)
                                + ",\"payer_address\":\"0xPAYER\","
                                + "\"crypto_amount\":1,\"status\":\"pending\",\"confirmations\":1,"
                                + "\"required_confirmations\":12}")
                .ids(HttpMethod.POST, "/internal/payment_links/{id}/transactions", "{}")
                .write(
                        HttpMethod.POST,
                        "/internal/payment_links/" + link + "/outgoing_transfers",
                        "{\"network\":\"Ethereum\",\"tx_hash\":\"0xo1\"," + transfer(0, TEST_USDC)
                                + ",\"from_address\":\"0x70997970C51812dc3A010C7d01b50e0d17dc79C8\","
                                + "\"to_address\":\"0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC\","
                                + "\"crypto_amount\":1,\"status\":\"pending\",\"confirmations\":1}")
                .ids(HttpMethod.POST, "/internal/payment_links/{id}/outgoing_transfers", "{}")
                .run();

        assertThat(report.clientErrors()).isGreaterThan(report.cases() / 2);
        assertThat(report.successes())
                .as("reports the chain watcher may make are accepted")
                .isPositive();
    }

    @Test
    void theCheckoutAnswersHostileRequestsWithoutAServerError() {
        MerchantIdentity merchant = newMerchant();
        createOk(merchant, "{\"payment_name\":\"Tea\",\"amount\":3,\"currency\":\"USDC\"}");

        HostileRequests.Report report = HostileRequests.to((method, uri) -> asEncoded(null, method, uri))
                .state(MerchantRows.of("payment_links", merchant.merchantId()))
                .read("/checkout/payment_link", "payment_id")
                .read("/checkout/payment_link/status", "payment_id")
                .ids(HttpMethod.GET, "/checkout/payment_link?payment_id={id}", null)
                .run();

        assertThat(report.cases()).isGreaterThan(50);
    }
}
