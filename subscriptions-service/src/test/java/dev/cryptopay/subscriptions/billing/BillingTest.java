package dev.cryptopay.subscriptions.billing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cryptopay.auth.Mode;
import dev.cryptopay.auth.internal.MerchantIdentity;
import dev.cryptopay.subscriptions.SubscriptionsTestBase;
import dev.cryptopay.subscriptions.config.SubscriptionsProperties;
import dev.cryptopay.subscriptions.plan.PlanService;
import dev.cryptopay.subscriptions.subscription.SubscriberRepository;
import dev.cryptopay.subscriptions.subscription.SubscriptionChanges;
import dev.cryptopay.testsupport.TestKafka;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.transaction.reactive.TransactionalOperator;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;
import tools.jackson.databind.JsonNode;

/**
 * Payments and the billing scheduler on the service's clock: the test moves the clock and runs a pass, as the
 * scheduler's loop would (the loop itself is off in tests).
 */
class BillingTest extends SubscriptionsTestBase {

    private static final Duration TRIAL = Duration.ofDays(7);
    private static final Duration INTERVAL = Duration.ofDays(30);
    private static final Duration GRACE = Duration.ofDays(3);

    @Autowired
    BillingScheduler scheduler;

    @Autowired
    BillingRepository billing;

    @Autowired
    SubscriberRepository subscribers;

    @Autowired
    PlanService plans;

    @Autowired
    SubscriptionChanges changes;

    @Autowired
    TransactionalOperator tx;

    @Autowired
    SubscriptionsProperties properties;

    @Test
    void aFullWalkFromEnrolmentToAutoCancellation() {
        MerchantIdentity merchant = newMerchant();
        JsonNode plan = createPlan(merchant, amountPlan("Pro"));
        String subscriberId = createSubscriber(merchant, plan.get("id").asString(), "Ada", "ada@example.com")
                .get("id")
                .asString();
        Instant enrolledAt = clock.instant();
        JsonNode link = enrol(plan.get("id").asString(), subscriberId);
        String linkUri = "/subscriptions/link/" + link.get("id").asString();

        String tx = txHash();
        JsonNode payment = read(reportPayment(merchant, link, plan, tx, "10000000")
                .expectStatus()
                .isCreated());
        assertThat(payment.get("sub_link_id").asString())
                .isEqualTo(link.get("id").asString());
        assertThat(payment.get("tx_hash").asString()).isEqualTo(tx);
        assertThat(payment.get("amount").asString()).isEqualTo("10000000");
        assertThat(payment.get("status").asString()).isEqualTo("confirmed");
        assertThat(payment.get("confirmations").asInt()).isEqualTo(1);
        assertThat(Instant.parse(payment.get("starts_at").asString())).isEqualTo(enrolledAt.plus(TRIAL));
        assertThat(Instant.parse(payment.get("ends_at").asString()))
                .isEqualTo(enrolledAt.plus(TRIAL).plus(INTERVAL));
        assertThat(payment.get("next_billing_at").asString())
                .isEqualTo(payment.get("ends_at").asString());
        assertThat(read(get(merchant, linkUri).expectStatus().isOk())
                        .get("paid_periods")
                        .asInt())
                .isEqualTo(1);

        // The next period is due at the end of the first; three days of grace; then it is missed.
        clock.set(enrolledAt.plus(TRIAL).plus(INTERVAL).plus(GRACE).minusSeconds(1));
        scheduler.runDue().block();
        assertThat(owedOf(merchant, linkUri)).as("still in grace").isEqualTo("0");
        clock.advance(Duration.ofSeconds(2));
        scheduler.runDue().block();
        JsonNode owing = read(get(merchant, linkUri).expectStatus().isOk());
        assertThat(owing.get("owed").asString()).isEqualTo("10000000");
        assertThat(owing.get("is_active").asBoolean()).isTrue();
        scheduler.runDue().block();
        assertThat(owedOf(merchant, linkUri))
                .as("a missed period is applied once")
                .isEqualTo("10000000");

        clock.advance(INTERVAL);
        scheduler.runDue().block();
        clock.advance(INTERVAL);
        scheduler.runDue().block();

        JsonNode cancelled = read(get(merchant, linkUri).expectStatus().isOk());
        assertThat(cancelled.get("owed").asString()).isEqualTo("30000000");
        assertThat(cancelled.get("is_active").asBoolean()).isFalse();
        assertThat(read(get(merchant, "/subscriber/" + subscriberId)
                                .expectStatus()
                                .isOk())
                        .get("status")
                        .asString())
                .isEqualTo("cancelled");
        clock.advance(INTERVAL);
        scheduler.runDue().block();
        assertThat(owedOf(merchant, linkUri))
                .as("a cancelled link is never billed again")
                .isEqualTo("30000000");

        List<ConsumerRecord<String, String>> records = TestKafka.recordsWithKey(
                "subscriptions.events", merchant.merchantId().toString(), 7);
        assertThat(records)
                .extracting(r -> TestKafka.header(r, "event-type"))
                .containsExactly(
                        "subscription.created",
                        "subscription.activated",
                        "subscription.payment.success",
                        "subscription.payment.failed",
                        "subscription.payment.failed",
                        "subscription.payment.failed",
                        "subscription.cancelled");
        JsonNode success = json.readTree(records.get(2).value()).get("data");
        assertThat(success.get("tx_hash").asString()).isEqualTo(tx);
        assertThat(success.get("amount").asString()).isEqualTo("10000000");
        assertThat(success.get("subscription_link_id").asString())
                .isEqualTo(link.get("id").asString());
        JsonNode failed = json.readTree(records.get(3).value()).get("data");
        assertThat(failed.get("tx_hash").isNull()).isTrue();
        assertThat(failed.get("amount").asString()).isEqualTo("10000000");
        assertThat(json.readTree(records.get(6).value())
                        .get("data")
                        .get("status")
                        .asString())
                .isEqualTo("cancelled");
    }

    @Test
    void aPaymentIsRecordedOnceAndOnlyForItsMerchantsLink() {
        MerchantIdentity merchant = newMerchant();
        JsonNode plan = createPlan(merchant, amountPlan("Pro"));
        JsonNode link = enrol(
                plan.get("id").asString(),
                createSubscriber(merchant, plan.get("id").asString(), "Ada", "ada@example.com")
                        .get("id")
                        .asString());
        String tx = txHash();

        JsonNode first = read(reportPayment(merchant, link, plan, tx, "15000000")
                .expectStatus()
                .isCreated());
        JsonNode again = read(reportPayment(merchant, link, plan, tx, "15000000")
                .expectStatus()
                .isOk());
        assertThat(again.get("id").asString()).isEqualTo(first.get("id").asString());
        assertThat(read(reportPayment(merchant, link, plan, tx, "20000000")
                                .expectStatus()
                                .isEqualTo(409))
                        .get("code")
                        .asString())
                .isEqualTo("tx_hash_recorded");
        assertThat(read(get(merchant, "/subscriptions/link/" + link.get("id").asString())
                                .expectStatus()
                                .isOk())
                        .get("paid_periods")
                        .asInt())
                .as("the repeat counted nothing")
                .isEqualTo(1);

        reportPayment(newMerchant(), link, plan, txHash(), "10000000")
                .expectStatus()
                .isNotFound();
        reportPayment(new MerchantIdentity(merchant.merchantId(), Mode.LIVE), link, plan, txHash(), "10000000")
                .expectStatus()
                .isNotFound();
        assertThat(read(reportPayment(merchant, link, plan, txHash(), "9999999")
                                .expectStatus()
                                .isBadRequest())
                        .get("code")
                        .asString())
                .isEqualTo("insufficient_payment");
        Map<String, Object> wrongNetwork = new java.util.LinkedHashMap<>();
        wrongNetwork.put("sub_link_id", link.get("id").asString());
        wrongNetwork.put("merchant_key", "mk_test_x");
        wrongNetwork.put("tx_hash", txHash());
        wrongNetwork.put("network_id", SEPOLIA_ID);
        wrongNetwork.put("currency_id", USDC_CURRENCY_ID);
        wrongNetwork.put("amount_paid", "10000000");
        wrongNetwork.put("wallet_used", WALLET);
        send(merchant, org.springframework.http.HttpMethod.POST, "/public/subscriptions/link/payment", wrongNetwork)
                .expectStatus()
                .isBadRequest();
        wrongNetwork.remove("merchant_key");
        send(merchant, org.springframework.http.HttpMethod.POST, "/public/subscriptions/link/payment", wrongNetwork)
                .expectStatus()
                .isBadRequest();
        send(null, org.springframework.http.HttpMethod.POST, "/public/subscriptions/link/payment", wrongNetwork)
                .expectStatus()
                .isUnauthorized();
    }

    @Test
    void aTransactionRecordedByOneMerchantDoesNotBlockAnother() {
        String tx = txHash();
        for (int i = 0; i < 2; i++) {
            MerchantIdentity merchant = newMerchant();
            JsonNode plan = createPlan(merchant, amountPlan("Pro"));
            JsonNode link = enrol(
                    plan.get("id").asString(),
                    createSubscriber(merchant, plan.get("id").asString(), "Ada", null)
                            .get("id")
                            .asString());
            // Each merchant records the same hash for its own link.
            reportPayment(merchant, link, plan, tx, "10000000").expectStatus().isCreated();
        }
    }

    @Test
    void noPeriodAfterTheLinksExpiryIsPaid() {
        MerchantIdentity merchant = newMerchant();
        JsonNode plan = createPlan(merchant, amountPlan("Pro"));
        Map<String, Object> body = enrolment(
                plan.get("id").asString(),
                createSubscriber(merchant, plan.get("id").asString(), "Ada", "ada@example.com")
                        .get("id")
                        .asString(),
                "120000000");
        body.put("expires_at", clock.instant().plus(Duration.ofDays(1)).toString());
        JsonNode link = read(send(null, org.springframework.http.HttpMethod.POST, "/public/subscriptions/link/", body)
                .expectStatus()
                .isCreated());

        assertThat(read(reportPayment(merchant, link, plan, txHash(), "10000000")
                                .expectStatus()
                                .isEqualTo(409))
                        .get("code")
                        .asString())
                .as("the first period starts when the 7-day trial ends, after the link expired")
                .isEqualTo("link_expired");
    }

    @Test
    void aSurplusPaysOffDebtAndAPaymentResetsTheMisses() {
        MerchantIdentity merchant = newMerchant();
        Map<String, Object> terms = amountPlan("No trial");
        terms.put("trial_period", 0);
        JsonNode plan = createPlan(merchant, terms);
        Instant enrolledAt = clock.instant();
        JsonNode link = enrol(
                plan.get("id").asString(),
                createSubscriber(merchant, plan.get("id").asString(), "Ada", "ada@example.com")
                        .get("id")
                        .asString());
        String linkUri = "/subscriptions/link/" + link.get("id").asString();

        clock.set(enrolledAt.plus(GRACE).plusSeconds(1));
        scheduler.runDue().block();
        assertThat(read(get(merchant, linkUri).expectStatus().isOk())
                        .get("owed")
                        .asString())
                .isEqualTo("10000000");

        JsonNode payment = read(reportPayment(merchant, link, plan, txHash(), "20000000")
                .expectStatus()
                .isCreated());
        assertThat(Instant.parse(payment.get("starts_at").asString()))
                .as("the missed period stays missed; the payment covers the next one")
                .isEqualTo(enrolledAt.plus(INTERVAL));
        JsonNode settled = read(get(merchant, linkUri).expectStatus().isOk());
        assertThat(settled.get("owed").asString()).isEqualTo("0");
        assertThat(settled.get("paid_periods").asInt()).isEqualTo(1);
    }

    @Test
    void twoSchedulersOnOneDatabaseNeverBillOrAnnounceTwice() {
        MerchantIdentity merchant = newMerchant();
        Map<String, Object> terms = amountPlan("Busy");
        terms.put("trial_period", 0);
        terms.put("auto_cancel_after_missed", 0);
        JsonNode plan = createPlan(merchant, terms);
        Instant enrolledAt = clock.instant();
        int count = 25;
        for (int i = 0; i < count; i++) {
            Map<String, Object> body = enrolment(plan.get("id").asString(), null, "120000000");
            body.put("customer_name", "Customer " + i);
            body.put("expires_at", enrolledAt.plus(Duration.ofDays(35)).toString());
            send(null, org.springframework.http.HttpMethod.POST, "/public/subscriptions/link/", body)
                    .expectStatus()
                    .isCreated();
        }
        BillingScheduler second = new BillingScheduler(billing, subscribers, plans, changes, tx, properties, clock);

        // Two periods missed and the expiry notice due, for every link at once; both schedulers run together.
        clock.set(enrolledAt.plus(INTERVAL).plus(GRACE).plusSeconds(1));
        List<Integer> applied = Mono.zip(
                        scheduler.runDue().subscribeOn(Schedulers.parallel()),
                        second.runDue().subscribeOn(Schedulers.parallel()),
                        List::of)
                .block();
        assertThat(applied.get(0) + applied.get(1))
                .as("other tests' links may be due too")
                .isGreaterThanOrEqualTo(count * 3);
        assertThat(scheduler.runDue().block() + second.runDue().block()).isZero();

        List<ConsumerRecord<String, String>> records = TestKafka.recordsWithKey(
                "subscriptions.events", merchant.merchantId().toString(), count * 5);
        assertThat(records)
                .filteredOn(r -> "subscription.payment.failed".equals(TestKafka.header(r, "event-type")))
                .hasSize(count * 2);
        assertThat(records)
                .filteredOn(r -> "subscription.expiring".equals(TestKafka.header(r, "event-type")))
                .hasSize(count);
    }

    private String owedOf(MerchantIdentity merchant, String linkUri) {
        return read(get(merchant, linkUri).expectStatus().isOk()).get("owed").asString();
    }
}
