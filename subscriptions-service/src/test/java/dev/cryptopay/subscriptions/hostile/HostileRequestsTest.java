package dev.cryptopay.subscriptions.hostile;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cryptopay.auth.internal.MerchantIdentity;
import dev.cryptopay.subscriptions.SubscriptionsTestBase;
import dev.cryptopay.testsupport.hostile.HostileRequests;
import dev.cryptopay.testsupport.hostile.MerchantRows;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpMethod;
import org.springframework.test.web.reactive.server.WebTestClient;
import tools.jackson.databind.JsonNode;

/**
 * The shared hostile-request corpus (test-support {@code hostile/}) against every route of the service: each answer
 * is a 2xx or a 4xx within the time limit, and a 4xx leaves the merchant's rows as they were. Public routes are
 * checked against the rows of the merchant whose plan, subscriber or link they reach.
 */
class HostileRequestsTest extends SubscriptionsTestBase {

    private static final String LIST_PARAMETERS = "page,page_size,search,plan_id,start_date,end_date";

    @Test
    void planRoutesAnswerHostileRequestsWithA4xxAndChangeNothing() {
        MerchantIdentity merchant = newMerchant();
        String plan = createPlan(merchant, amountPlan("Pro")).get("id").asString();
        Map<String, Object> terms = fullPlan();
        Map<String, Object> forSigning = new LinkedHashMap<>(terms);
        forSigning.put("plan_nonce", 1000);

        HostileRequests.Report report = HostileRequests.to((method, uri) -> asEncoded(merchant, method, uri))
                .state(MerchantRows.of("subscriptions", merchant.merchantId()))
                .write(HttpMethod.POST, "/subscriptions/plans/typed-data", json.writeValueAsString(forSigning))
                .write(
                        HttpMethod.POST,
                        "/subscriptions/plans/",
                        json.writeValueAsString(signed(merchant, terms, MERCHANT_KEY)))
                .read("/subscriptions/plans", "page", "page_size", "search", "deprecated", "start_date", "end_date")
                .read("/subscriptions/plans/")
                .read("/subscriptions/plans/" + plan)
                .ids(HttpMethod.GET, "/subscriptions/plans/{id}", null)
                .ids(HttpMethod.PUT, "/subscriptions/plans/{id}", "{\"name\":\"Max\"}")
                .ids(HttpMethod.DELETE, "/subscriptions/plans/{id}", null)
                .write(
                        HttpMethod.PUT,
                        "/subscriptions/plans/" + plan,
                        "{\"name\":\"Pro 2\",\"metadata_uri\":\"https://example.com/plan.json\",\"status\":\"active\"}")
                .run();

        assertThat(report.cases()).isGreaterThan(1500);
        assertThat(report.clientErrors()).isGreaterThan(report.cases() / 2);
    }

    @Test
    void subscriberAndLinkRoutesAnswerHostileRequestsWithA4xxAndChangeNothing() {
        MerchantIdentity merchant = newMerchant();
        JsonNode plan = createPlan(merchant, amountPlan("Pro"));
        String planId = plan.get("id").asString();
        String subscriber = createSubscriber(merchant, planId, "Ada", "ada@example.com")
                .get("id")
                .asString();
        JsonNode link = enrol(planId, subscriber);
        String linkId = link.get("id").asString();
        Map<String, Object> payment = new LinkedHashMap<>();
        payment.put("sub_link_id", linkId);
        payment.put("merchant_key", "mk_test_resolved_by_the_gateway");
        payment.put("tx_hash", txHash());
        payment.put("block_number", 42);
        payment.put("block_hash", "0x" + "ef".repeat(32));
        payment.put("network_id", plan.get("network_id").asString());
        payment.put("currency_id", plan.get("currency_id").asString());
        payment.put("amount_paid", "10000000");
        payment.put("wallet_used", WALLET);

        HostileRequests.Report report = HostileRequests.to((method, uri) -> asEncoded(merchant, method, uri))
                .state(MerchantRows.of("subscriptions", merchant.merchantId()))
                .write(HttpMethod.POST, "/subscriber/", subscriberBody(planId))
                .read("/subscriber", LIST_PARAMETERS.split(","))
                .read("/subscriber/")
                .read("/subscriber/plan/" + planId, LIST_PARAMETERS.split(","))
                .ids(HttpMethod.GET, "/subscriber/plan/{id}", null)
                .read("/subscriber/" + subscriber)
                .ids(HttpMethod.GET, "/subscriber/{id}", null)
                .ids(HttpMethod.PUT, "/subscriber/{id}", "{\"customer_name\":\"Ada\"}")
                .write(
                        HttpMethod.PUT,
                        "/subscriber/" + subscriber,
                        "{\"customer_name\":\"Ada L\",\"customer_email\":\"ada@example.org\",\"status\":\"active\"}")
                .read("/invitations", LIST_PARAMETERS.split(","))
                .read("/invitations/")
                .read("/subscriptions/link", (LIST_PARAMETERS + ",is_active").split(","))
                .read("/subscriptions/link/")
                .read("/subscriptions/link/" + linkId)
                .ids(HttpMethod.GET, "/subscriptions/link/{id}", null)
                .ids(HttpMethod.PUT, "/subscriptions/link/{id}", "{\"customer_name\":\"Ada\"}")
                .write(HttpMethod.PUT, "/subscriptions/link/" + linkId, merchantLinkChange(link))
                .write(HttpMethod.POST, "/public/subscriptions/link/payment", json.writeValueAsString(payment))
                .run();

        assertThat(report.cases()).isGreaterThan(1500);
        assertThat(report.clientErrors()).isGreaterThan(report.cases() / 2);
    }

    @Test
    void publicRoutesAnswerHostileRequestsWithA4xxAndChangeNothing() {
        MerchantIdentity merchant = newMerchant();
        String plan = createPlan(merchant, amountPlan("Pro")).get("id").asString();
        String enrolled = createSubscriber(merchant, plan, "Ada", "ada@example.com")
                .get("id")
                .asString();
        String link = enrol(plan, enrolled).get("id").asString();
        String invited = createSubscriber(merchant, plan, "Bob", "bob@example.com")
                .get("id")
                .asString();
        String customer = createSubscriber(merchant, plan, "Cy", "cy@example.com")
                .get("id")
                .asString();
        MerchantRows rows = MerchantRows.of("subscriptions", merchant.merchantId());

        HostileRequests.Report report = HostileRequests.to((method, uri) -> asEncoded(null, method, uri))
                .state(rows)
                .read("/public/subscriptions/plans", "page", "page_size", "merchant", "network_id")
                .read("/public/subscriptions/plans/")
                .read("/public/subscriptions/plans/" + plan)
                .ids(HttpMethod.GET, "/public/subscriptions/plans/{id}", null)
                .read(
                        "/public/subscriber/prepare",
                        "subscriber_id",
                        "subscription_plan_id",
                        "wallet_address",
                        "periods")
                .ids(
                        HttpMethod.GET,
                        "/public/subscriber/prepare?wallet_address=" + WALLET + "&subscription_plan_id={id}",
                        null)
                .ids(
                        HttpMethod.GET,
                        "/public/subscriber/prepare?wallet_address=" + WALLET + "&subscriber_id={id}",
                        null)
                .ids(
                        HttpMethod.GET,
                        "/public/subscriber/prepare?subscriber_id=" + customer + "&wallet_address={id}",
                        null)
                .ids(
                        HttpMethod.GET,
                        "/public/subscriber/prepare?subscriber_id=" + customer + "&wallet_address=" + WALLET
                                + "&periods={id}",
                        null)
                .read("/public/subscriber/" + customer)
                .ids(HttpMethod.GET, "/public/subscriber/{id}", null)
                .ids(HttpMethod.PUT, "/public/subscriber/{id}", "{\"customer_name\":\"Cy\"}")
                .write(
                        HttpMethod.PUT,
                        "/public/subscriber/" + customer,
                        "{\"customer_name\":\"Cy D\",\"customer_email\":\"cy@example.org\",\"status\":\"cancelled\"}")
                .write(HttpMethod.POST, "/public/subscriptions/link/", enrolmentBody(plan, invited))
                .read("/public/subscriptions/link/" + WALLET, "page", "page_size")
                .ids(HttpMethod.GET, "/public/subscriptions/link/{id}", null)
                .ids(HttpMethod.PUT, "/public/subscriptions/link/{id}", "{\"customer_name\":\"Ada\"}")
                .read("/public/subscriptions/nft/" + plan)
                .read("/public/subscriptions/nft/" + plan + "/image.svg")
                .ids(HttpMethod.GET, "/public/subscriptions/nft/{id}", null)
                .ids(HttpMethod.GET, "/public/subscriptions/nft/{id}/image.svg", null)
                .actuator()
                .run();
        HostileRequests.Report signed = HostileRequests.to(this::signedByTheWallet)
                .state(rows)
                .write(HttpMethod.PUT, "/public/subscriptions/link/" + link, customerLinkChange())
                .run();

        assertThat(report.cases()).isGreaterThan(1000);
        assertThat(report.clientErrors()).isGreaterThan(report.cases() / 2);
        assertThat(signed.clientErrors()).isGreaterThan(signed.cases() / 2);
    }

    /** Every create field of an amount plan, optional ones included. */
    private static Map<String, Object> fullPlan() {
        Map<String, Object> body = amountPlan("Pro yearly");
        body.put("network_id", DEV_CHAIN_ID);
        body.put("currency_id", USDC_CURRENCY_ID);
        body.put("period", 2592000);
        body.put("description", "Everything, billed monthly");
        body.put("metadata_uri", "ipfs://bafybeigdyrzt5sfp7udm7hu76uh7y26nf3efuylqabf3oclgtqy55fbzdi");
        body.put("kind", "amount");
        return body;
    }

    private String subscriberBody(String planId) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("subscription_plan_id", planId);
        body.put("customer_id", "c-1");
        body.put("customer_name", "Grace");
        body.put("customer_email", "grace@example.com");
        body.put("webhook_metadata", Map.of("order", "o-1"));
        body.put("success_return_url", "https://example.com/ok");
        body.put("failure_return_url", "https://example.com/failed");
        return json.writeValueAsString(body);
    }

    private String enrolmentBody(String planId, String subscriberId) {
        Map<String, Object> body = enrolment(planId, subscriberId, "120000000");
        body.put("subscribe_hash", txHash());
        body.put("subscription_onchain_id", 7);
        body.put("subscribed_at", clock.instant().minus(Duration.ofMinutes(1)).toString());
        body.put("trial_ends_at", clock.instant().plus(Duration.ofDays(7)).toString());
        body.put("expires_at", clock.instant().plus(Duration.ofDays(365)).toString());
        body.put("owed", "0");
        body.put("paid_periods", 0);
        body.put("locked", false);
        body.put("customer_name", "Bob B");
        body.put("customer_email", "bob@example.org");
        return json.writeValueAsString(body);
    }

    /** Every field a merchant may change; {@code locked: false} last, so a hostile {@code true} locks only briefly. */
    private String merchantLinkChange(JsonNode link) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("trial_ends_at", link.get("trial_ends_at").asString());
        body.put("customer_email", "ada@example.org");
        body.put("customer_name", "Ada L");
        body.put("expires_at", clock.instant().plus(Duration.ofDays(365)).toString());
        body.put("is_active", true);
        body.put("owed", "0");
        body.put("locked", false);
        return json.writeValueAsString(body);
    }

    /** Every field a customer may change; a hostile {@code locked: true} comes last as it cannot be undone. */
    private String customerLinkChange() {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("customer_email", "ada@example.net");
        body.put("customer_name", "Ada K");
        body.put("expires_at", clock.instant().plus(Duration.ofDays(365)).toString());
        body.put("is_active", true);
        body.put("locked", false);
        return json.writeValueAsString(body);
    }

    /**
     * A public request whose body, once set, is signed by the link's wallet: hostile bodies then pass the signature
     * check and reach the change itself.
     */
    private WebTestClient.RequestBodySpec signedByTheWallet(HttpMethod method, String rawUri) {
        WebTestClient.RequestBodySpec request = asEncoded(null, method, rawUri);
        String linkId = rawUri.substring("/public/subscriptions/link/".length());
        return (WebTestClient.RequestBodySpec) Proxy.newProxyInstance(
                getClass().getClassLoader(),
                new Class<?>[] {WebTestClient.RequestBodySpec.class},
                (proxy, called, arguments) -> {
                    if (called.getName().equals("bodyValue") && arguments.length == 1) {
                        request.headers(headers -> headers.addAll(
                                walletHeaders(linkId, (String) arguments[0], WALLET_KEY, clock.instant())));
                    }
                    try {
                        Object answer = called.invoke(request, arguments);
                        return answer == request ? proxy : answer;
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }
}
