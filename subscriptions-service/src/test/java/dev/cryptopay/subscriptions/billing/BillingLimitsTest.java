package dev.cryptopay.subscriptions.billing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cryptopay.auth.internal.MerchantIdentity;
import dev.cryptopay.subscriptions.SubscriptionsTestBase;
import java.math.BigInteger;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.HttpMethod;
import org.springframework.r2dbc.core.DatabaseClient;
import tools.jackson.databind.JsonNode;

/**
 * Billing at the edges of what a signed plan allows: the debt of a link stays a uint256 however many periods of
 * the largest amount it misses. Before, the debt outgrew its column after nine such periods, and the failing
 * statement rolled back every batch it was in: no link of any merchant was billed again.
 */
class BillingLimitsTest extends SubscriptionsTestBase {

    private static final String UINT256_MAX =
            BigInteger.ONE.shiftLeft(256).subtract(BigInteger.ONE).toString();

    @Autowired
    BillingScheduler scheduler;

    @Autowired
    DatabaseClient database;

    @Test
    void theDebtOfTheLargestAmountStopsAtTheLargestUint256AndBillingGoesOn() {
        MerchantIdentity merchant = newMerchant();
        Map<String, Object> terms = amountPlan("Everything, every second");
        terms.put("amount", UINT256_MAX);
        terms.put("interval", 1);
        terms.put("trial_period", 0);
        terms.put("max_arrears", 0);
        terms.put("auto_cancel_after_missed", 0);
        JsonNode plan = createPlan(merchant, terms);
        String subscriber = createSubscriber(merchant, plan.get("id").asString(), "Ada", "ada@example.com")
                .get("id")
                .asString();
        Map<String, Object> enrolment = enrolment(plan.get("id").asString(), subscriber, UINT256_MAX);
        // Periods from the expiry on are never billed: other tests' passes on a later clock bill 25 at most.
        enrolment.put("expires_at", clock.instant().plusSeconds(25).toString());
        JsonNode link = read(send(null, HttpMethod.POST, "/public/subscriptions/link/", enrolment)
                .expectStatus()
                .isCreated());
        String linkPath = "/subscriptions/link/" + link.get("id").asString();

        clock.advance(Duration.ofSeconds(20));
        scheduler.runDue().block();

        JsonNode owing = read(get(merchant, linkPath).expectStatus().isOk());
        assertThat(owing.get("owed").asString()).isEqualTo(UINT256_MAX);
        assertThat(owing.get("is_active").asBoolean()).isTrue();
        Map<String, Object> row = database.sql(
                        "SELECT missed_periods, period_due_at FROM subscription_link WHERE id = :id")
                .bind("id", UUID.fromString(link.get("id").asString()))
                .fetch()
                .one()
                .block();
        assertThat((Integer) row.get("missed_periods"))
                .as("every missed period was applied")
                .isGreaterThan(9);
        assertThat(((OffsetDateTime) row.get("period_due_at")).toInstant()).isAfter(clock.instant());
    }
}
