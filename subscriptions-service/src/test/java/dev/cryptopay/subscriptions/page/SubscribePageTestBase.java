package dev.cryptopay.subscriptions.page;

import static dev.cryptopay.checkoutui.PageChecks.body;

import dev.cryptopay.auth.internal.MerchantIdentity;
import dev.cryptopay.subscriptions.SubscriptionsTestBase;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.WebTestClient;
import tools.jackson.databind.JsonNode;

/**
 * Shortcuts for the subscribe page's tests: plans and invitations made through the merchant routes, and the page's
 * routes called as the gateway forwards them (an internal token, no merchant identity).
 */
abstract class SubscribePageTestBase extends SubscriptionsTestBase {

    /** 10 USDC every 30 days without a trial: the wallet pays the first period when it subscribes. */
    static Map<String, Object> noTrialPlan(String name) {
        Map<String, Object> terms = amountPlan(name);
        terms.remove("trial_period");
        return terms;
    }

    /** A plan of these terms and one invitation to it; answers {plan, subscriber}. */
    JsonNode[] invitation(MerchantIdentity merchant, Map<String, Object> terms, Map<String, Object> invite) {
        JsonNode plan = createPlan(merchant, terms);
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("subscription_plan_id", plan.get("id").asString());
        body.put("customer_name", "Ada Lovelace");
        body.put("customer_email", "ada@example.com");
        body.putAll(invite);
        JsonNode subscriber = read(send(merchant, HttpMethod.POST, "/subscriber/", body)
                .expectStatus()
                .isCreated());
        return new JsonNode[] {plan, subscriber};
    }

    WebTestClient.ResponseSpec page(String subscriberId) {
        return as(null, HttpMethod.GET, "/checkout/subscribe?subscriber_id=" + subscriberId)
                .accept(MediaType.TEXT_HTML)
                .exchange();
    }

    /** The page of a subscriber that exists, as text. */
    String html(String subscriberId) {
        return body(page(subscriberId).expectStatus().isOk());
    }

    JsonNode status(String subscriberId) {
        return read(as(null, HttpMethod.GET, "/checkout/subscribe/status?subscriber_id=" + subscriberId)
                .exchange()
                .expectStatus()
                .isOk());
    }

    /** The text content of the element with this id (its first text run, unescaped as the page wrote it). */
    static String element(String html, String id) {
        Matcher matcher =
                Pattern.compile("id=\"" + Pattern.quote(id) + "\"[^>]*>([^<]*)").matcher(html);
        if (!matcher.find()) {
            throw new AssertionError("no #" + id + " in the page:\n" + html);
        }
        return matcher.group(1);
    }
}
