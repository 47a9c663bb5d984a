package dev.cryptopay.subscriptions.plan;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cryptopay.auth.internal.MerchantIdentity;
import dev.cryptopay.subscriptions.SubscriptionsTestBase;
import dev.cryptopay.subscriptions.billing.BillingScheduler;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.HttpMethod;
import tools.jackson.databind.JsonNode;

/**
 * A plan's durations are added to dates the service stores (a trial's end, a period's end, a grace's end), which
 * must stay within the years 1 to 9999: durations are at most 100 years, and a payment whose period would end after
 * 9999 is not recorded. Before, a signed plan with a trial of 2^53 - 1 seconds made every enrolment a 500, and one with
 * such a grace would have stopped the billing query for every merchant.
 */
class PlanDurationsTest extends SubscriptionsTestBase {

    private static final long HUNDRED_YEARS = 3_155_760_000L;

    @Autowired
    BillingScheduler billing;

    @Test
    void durationsLongerThanAHundredYearsAreRefused() {
        MerchantIdentity merchant = newMerchant();
        for (String duration : List.of("interval", "period", "trial_period", "max_arrears", "subscribe_deadline")) {
            Map<String, Object> terms = amountPlan("Forever");
            if (duration.equals("period")) {
                terms.remove("interval");
            }
            terms.put(duration, HUNDRED_YEARS + 1);
            for (String route : List.of("/subscriptions/plans/typed-data", "/subscriptions/plans/")) {
                Map<String, Object> body = new java.util.LinkedHashMap<>(terms);
                body.put("merchant_sig", "0x" + "11".repeat(65));
                JsonNode problem = read(send(merchant, HttpMethod.POST, route, body)
                        .expectStatus()
                        .isBadRequest());
                assertThat(problem.get("errors")).as(problem.toString()).anySatisfy(error -> {
                    assertThat(error.get("field").asString()).isEqualTo(duration);
                    assertThat(error.get("message").asString()).contains("at most 3155760000 seconds");
                });
            }
        }
    }

    @Test
    void aPlanOfTheLongestDurationsIsEnrolledOnChainAndBilledWithoutError() {
        MerchantIdentity merchant = newMerchant();
        Map<String, Object> terms = amountPlan("A century");
        for (String duration : List.of("interval", "trial_period", "max_arrears", "subscribe_deadline")) {
            terms.put(duration, HUNDRED_YEARS);
        }
        JsonNode plan = createPlan(merchant, terms);
        String subscriber = createSubscriber(merchant, plan.get("id").asString(), "Ada", "ada@example.com")
                .get("id")
                .asString();

        JsonNode link = enrol(plan.get("id").asString(), subscriber);
        assertThat(Instant.parse(link.get("trial_ends_at").asString()))
                .as("the contract's first due time, a century after the block")
                .isEqualTo(Instant.parse(link.get("subscribed_at").asString()).plusSeconds(HUNDRED_YEARS));
        assertThat(billing.runDue().block()).isNotNull();
        JsonNode enrolled =
                read(get(merchant, "/subscriptions/link/" + link.get("id").asString())
                        .expectStatus()
                        .isOk());
        assertThat(enrolled.get("is_active").asBoolean()).isTrue();
        assertThat(enrolled.get("paid_periods").asInt()).isZero();
    }
}
