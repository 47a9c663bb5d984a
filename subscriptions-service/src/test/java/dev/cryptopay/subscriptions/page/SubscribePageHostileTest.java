package dev.cryptopay.subscriptions.page;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cryptopay.auth.internal.MerchantIdentity;
import dev.cryptopay.testsupport.hostile.HostileRequests;
import dev.cryptopay.testsupport.hostile.MerchantRows;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpMethod;

/**
 * The shared hostile-request corpus against every subscribe page route: each answer is a 2xx or a 4xx within the time
 * limit, and a 4xx leaves the merchant's rows as they were.
 */
class SubscribePageHostileTest extends SubscribePageTestBase {

    @Test
    void thePageRoutesAnswerHostileRequestsWithA4xxAndChangeNothing() {
        MerchantIdentity merchant = newMerchant();
        String invited = invitation(merchant, amountPlan("Hostile"), Map.of())[1]
                .get("id")
                .asString();
        Map<String, Object> enrolment = new LinkedHashMap<>();
        enrolment.put("subscriber_id", invited);
        enrolment.put("wallet_address", WALLET);
        enrolment.put("subscribe_hash", txHash());
        enrolment.put("approval_hash", txHash());
        enrolment.put("amount_approved", "120000000");

        HostileRequests.Report report = HostileRequests.to((method, uri) -> asEncoded(null, method, uri))
                .state(MerchantRows.of("subscriptions", merchant.merchantId()))
                .read("/checkout/subscribe", "subscriber_id")
                .ids(HttpMethod.GET, "/checkout/subscribe?subscriber_id={id}", null)
                .read("/checkout/subscribe/status", "subscriber_id")
                .ids(HttpMethod.GET, "/checkout/subscribe/status?subscriber_id={id}", null)
                .read("/checkout/subscribe/events", "subscriber_id")
                .read("/checkout/subscribe/prepare", "subscriber_id", "wallet_address", "periods")
                .ids(
                        HttpMethod.GET,
                        "/checkout/subscribe/prepare?wallet_address=" + WALLET + "&subscriber_id={id}",
                        null)
                .read("/checkout/subscribe/assets/subscribe.js")
                .write(HttpMethod.POST, "/checkout/subscribe/enrol", json.writeValueAsString(enrolment))
                .run();

        assertThat(report.cases()).isGreaterThan(300);
        assertThat(report.clientErrors()).isGreaterThan(report.cases() / 2);
    }
}
