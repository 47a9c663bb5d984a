package dev.cryptopay.subscriptions.billing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cryptopay.auth.Mode;
import dev.cryptopay.auth.internal.MerchantCredential;
import dev.cryptopay.auth.internal.MerchantIdentity;
import dev.cryptopay.subscriptions.SubscriptionsTestBase;
import dev.cryptopay.subscriptions.config.SubscriptionsProperties;
import dev.cryptopay.subscriptions.plan.PlanService;
import dev.cryptopay.subscriptions.subscription.LinkRepository;
import dev.cryptopay.subscriptions.subscription.SubscriberRepository;
import dev.cryptopay.subscriptions.subscription.SubscriptionChanges;
import dev.cryptopay.testsupport.TestKafka;
import dev.cryptopay.testsupport.chain.DevChain;
import dev.cryptopay.testsupport.chain.DevTokens;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.HttpMethod;
import org.springframework.transaction.reactive.TransactionalOperator;
import org.web3j.protocol.core.methods.response.TransactionReceipt;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;
import tools.jackson.databind.JsonNode;

/**
 * Billing on the real subscription contract (anvil): the contract collects and counts misses, the chain watcher's
 * reports of its confirmed logs (sent here as the watcher sends them) move the links, and the scheduler does only
 * what the chain cannot say. Time moves on the chain ({@code evm_increaseTime}); nothing waits.
 */
class BillingTest extends SubscriptionsTestBase {

    private static final long DAY = 86_400;
    private static final long TRIAL = 7 * DAY;
    private static final long INTERVAL = 30 * DAY;
    private static final long GRACE = 3 * DAY;

    @Autowired
    BillingScheduler scheduler;

    @Autowired
    BillingRepository billing;

    @Autowired
    LinkRepository links;

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
    void aFullWalkFromEnrolmentToAutoCancellationFollowsTheChain() {
        MerchantIdentity merchant = newMerchant();
        JsonNode plan = createPlan(merchant, amountPlan("Pro"));
        String subscriberId = createSubscriber(merchant, plan.get("id").asString(), "Ada", "ada@example.com")
                .get("id")
                .asString();
        JsonNode link = enrol(plan.get("id").asString(), subscriberId);
        String linkUri = "/subscriptions/link/" + link.get("id").asString();
        String chainId = link.get("chain_subscription_id").asString();
        Instant subscribedAt = Instant.parse(link.get("subscribed_at").asString());
        assertThat(link.get("is_active").asBoolean()).isTrue();
        assertThat(Instant.parse(link.get("trial_ends_at").asString()))
                .as("the trial's end is the contract's first due time")
                .isEqualTo(subscribedAt.plusSeconds(TRIAL));

        // The trial ends; anyone (here the merchant's account) collects the first period.
        CHAIN.increaseTime(TRIAL + 60);
        TransactionReceipt collected = contractCall(MERCHANT_ADDRESS, "collect", chainId);
        assertThat(reportLogs(collected)).containsExactly("applied");
        JsonNode paid = read(get(merchant, linkUri).expectStatus().isOk());
        assertThat(paid.get("paid_periods").asInt()).isEqualTo(1);
        JsonNode payment = paid.get("subscription_transactions").get(0);
        assertThat(payment.get("tx_hash").asString()).isEqualTo(collected.getTransactionHash());
        assertThat(payment.get("amount").asString()).isEqualTo("10000000");
        assertThat(payment.get("status").asString()).isEqualTo("confirmed");
        assertThat(payment.get("block_number").asLong())
                .isEqualTo(collected.getBlockNumber().longValueExact());
        assertThat(Instant.parse(payment.get("starts_at").asString())).isEqualTo(subscribedAt.plusSeconds(TRIAL));
        assertThat(Instant.parse(payment.get("ends_at").asString()))
                .isEqualTo(subscribedAt.plusSeconds(TRIAL + INTERVAL));

        // The merchant's report of that transaction is answered with what the chain recorded; a hash on no chain,
        // or the right hash with another amount, never counts.
        JsonNode reported = read(reportPayment(merchant, link, plan, collected.getTransactionHash(), "10000000")
                .expectStatus()
                .isOk());
        assertThat(reported.get("id").asString()).isEqualTo(payment.get("id").asString());
        assertThat(reported.get("merchant_id").asString())
                .as("an API key's caller is the merchant")
                .isEqualTo(merchant.merchantId().toString());
        // The same report named by the merchant's publishable key, which anyone may read off its pages: the payment,
        // but nothing of the merchant's account.
        JsonNode named = read(reportPayment(
                        MerchantCredential.PUBLISHABLE_KEY,
                        merchant,
                        link,
                        plan,
                        collected.getTransactionHash(),
                        "10000000")
                .expectStatus()
                .isOk());
        assertThat(named.get("id").asString()).isEqualTo(payment.get("id").asString());
        assertThat(named.path("merchant_id").isMissingNode()
                        || named.get("merchant_id").isNull())
                .as("merchant_id to a publishable key's caller: " + named)
                .isTrue();
        assertThat(read(reportPayment(merchant, link, plan, txHash(), "10000000")
                                .expectStatus()
                                .isEqualTo(409))
                        .get("code")
                        .asString())
                .isEqualTo("payment_not_on_chain");
        assertThat(read(reportPayment(merchant, link, plan, collected.getTransactionHash(), "1000000000000000000000000")
                                .expectStatus()
                                .isBadRequest())
                        .get("code")
                        .asString())
                .isEqualTo("amount_mismatch");

        // The wallet spends what it approved elsewhere: the next periods pass their grace unpaid. One collect counts
        // two misses at once: one event, two periods of debt.
        CHAIN.sendTransaction(
                WALLET,
                DEV_USDC,
                dev.cryptopay.subscriptions.plan.SubscriptionContractCalls.approve(
                        dev.cryptopay.testsupport.chain.DevChain.SUBSCRIPTION_CONTRACT, java.math.BigInteger.ZERO),
                java.math.BigInteger.ZERO);
        CHAIN.increaseTime(2 * INTERVAL + GRACE);
        assertThat(reportLogs(contractCall(MERCHANT_ADDRESS, "collect", chainId)))
                .containsExactly("applied");
        JsonNode owing = read(get(merchant, linkUri).expectStatus().isOk());
        assertThat(owing.get("owed").asString()).isEqualTo("20000000");
        assertThat(owing.get("is_active").asBoolean()).isTrue();
        assertThat(owing.get("paid_periods").asInt()).isEqualTo(1);

        // The third miss in a row: the contract cancels, the link stops, the subscriber is cancelled.
        CHAIN.increaseTime(INTERVAL);
        assertThat(reportLogs(contractCall(MERCHANT_ADDRESS, "collect", chainId)))
                .containsExactly("applied", "applied");
        JsonNode cancelled = read(get(merchant, linkUri).expectStatus().isOk());
        assertThat(cancelled.get("owed").asString()).isEqualTo("30000000");
        assertThat(cancelled.get("is_active").asBoolean()).isFalse();
        assertThat(read(get(merchant, "/subscriber/" + subscriberId)
                                .expectStatus()
                                .isOk())
                        .get("status")
                        .asString())
                .isEqualTo("cancelled");

        List<ConsumerRecord<String, String>> records = merchantEvents(merchant, 6);
        assertThat(records)
                .extracting(r -> TestKafka.header(r, "event-type"))
                .containsExactly(
                        "subscription.created",
                        "subscription.activated",
                        "subscription.payment.success",
                        "subscription.payment.failed",
                        "subscription.payment.failed",
                        "subscription.cancelled");
        JsonNode success = json.readTree(records.get(2).value()).get("data");
        assertThat(success.get("tx_hash").asString()).isEqualTo(collected.getTransactionHash());
        assertThat(success.get("amount").asString()).isEqualTo("10000000");
        JsonNode failed = json.readTree(records.get(3).value()).get("data");
        assertThat(failed.get("amount").asString()).isEqualTo("20000000");
        assertThat(failed.get("periods").asLong()).isEqualTo(2);
        assertThat(failed.get("reason").asString()).isEqualTo("missed");
        assertThat(success.get("reason").isNull()).isTrue();
        assertThat(json.readTree(records.get(5).value())
                        .get("data")
                        .get("status")
                        .asString())
                .isEqualTo("cancelled");
        // What a reminder before the next pull needs, while the subscription runs; nothing once it is cancelled.
        JsonNode next = json.readTree(records.get(2).value()).get("notify").get("next_payment");
        JsonNode paidLink = read(get(merchant, linkUri).expectStatus().isOk());
        assertThat(next.get("wallet").asString())
                .isEqualToIgnoringCase(paidLink.get("wallet_address").asString());
        assertThat(next.get("chain_id").asLong()).isEqualTo(DevChain.CHAIN_ID);
        assertThat(next.get("token_contract").asString()).isEqualToIgnoringCase(DevTokens.USDC.address());
        assertThat(next.get("spender").asString()).isEqualToIgnoringCase(DevChain.SUBSCRIPTION_CONTRACT);
        assertThat(next.get("amount").asString()).isEqualTo("10");
        assertThat(next.get("amount_base_units").asString()).isEqualTo("10000000");
        assertThat(next.get("decimals").asInt()).isEqualTo(6);
        assertThat(Instant.parse(next.get("at").asString())).isAfter(subscribedAt);
        assertThat(json.readTree(records.get(5).value()).get("notify").has("next_payment"))
                .isFalse();
    }

    @Test
    void aReportedLogCountsOnceAndAReorganisationTakesItsPaymentAway() {
        MerchantIdentity merchant = newMerchant();
        Map<String, Object> terms = amountPlan("No trial");
        terms.put("trial_period", 0);
        JsonNode plan = createPlan(merchant, terms);
        JsonNode link = enrol(
                plan.get("id").asString(),
                createSubscriber(merchant, plan.get("id").asString(), "Ada", null)
                        .get("id")
                        .asString());
        String linkUri = "/subscriptions/link/" + link.get("id").asString();
        JsonNode enrolled = read(get(merchant, linkUri).expectStatus().isOk());
        assertThat(enrolled.get("paid_periods").asInt())
                .as("without a trial the subscribe transaction pulled the first period")
                .isEqualTo(1);
        JsonNode first = enrolled.get("subscription_transactions").get(0);
        assertThat(first.get("tx_hash").asString())
                .isEqualTo(link.get("subscribe_hash").asString());

        CHAIN.increaseTime(INTERVAL + 60);
        TransactionReceipt collected = contractCall(
                MERCHANT_ADDRESS, "collect", link.get("chain_subscription_id").asString());
        org.web3j.protocol.core.methods.response.Log charged =
                collected.getLogs().get(collected.getLogs().size() - 1);
        reportLog(charged, false).expectStatus().isCreated();
        reportLog(charged, false).expectStatus().isOk();
        assertThat(read(get(merchant, linkUri).expectStatus().isOk())
                        .get("paid_periods")
                        .asInt())
                .as("the repeated report counted nothing")
                .isEqualTo(2);

        JsonNode paid = read(get(merchant, linkUri).expectStatus().isOk());

        // A reorganisation deeper than the confirmations takes the collection away.
        reportLog(charged, true).expectStatus().isOk();
        JsonNode afterReorg = read(get(merchant, linkUri).expectStatus().isOk());
        assertThat(afterReorg
                        .get("subscription_transactions")
                        .get(1)
                        .get("status")
                        .asString())
                .isEqualTo("failed");
        assertThat(afterReorg.get("paid_periods").asInt()).as("rolled back").isEqualTo(1);
        JsonNode removed = paid.get("subscription_transactions").get(1);
        List<ConsumerRecord<String, String>> records = merchantEvents(merchant, 5);
        assertThat(records)
                .extracting(r -> TestKafka.header(r, "event-type"))
                .containsExactly(
                        "subscription.created",
                        "subscription.activated",
                        "subscription.payment.success",
                        "subscription.payment.success",
                        "subscription.payment.failed");
        JsonNode reorganised = json.readTree(records.get(4).value()).get("data");
        assertThat(reorganised.get("reason").asString()).isEqualTo("reorganised");
        assertThat(reorganised.get("tx_hash").asString()).isEqualTo(collected.getTransactionHash());
        assertThat(reorganised.get("amount").asString())
                .isEqualTo(removed.get("amount").asString());
        reportLog(charged, true).expectStatus().isOk();
        assertThat(merchantEvents(merchant, 5))
                .as("the same removal reported again rolls nothing back twice")
                .hasSize(5);
        assertThat(read(get(merchant, linkUri).expectStatus().isOk())
                        .get("paid_periods")
                        .asInt())
                .isEqualTo(1);
        reportPayment(merchant, link, plan, collected.getTransactionHash(), "10000000")
                .expectStatus()
                .isEqualTo(409);
    }

    @Test
    void aMerchantsReportOnlyReachesItsOwnLinks() {
        MerchantIdentity merchant = newMerchant();
        JsonNode plan = createPlan(merchant, amountPlan("Pro"));
        JsonNode link = enrol(
                plan.get("id").asString(),
                createSubscriber(merchant, plan.get("id").asString(), "Ada", "ada@example.com")
                        .get("id")
                        .asString());
        reportPayment(newMerchant(), link, plan, txHash(), "10000000")
                .expectStatus()
                .isNotFound();
        reportPayment(new MerchantIdentity(merchant.merchantId(), Mode.LIVE), link, plan, txHash(), "10000000")
                .expectStatus()
                .isNotFound();
        Map<String, Object> wrongNetwork = new java.util.LinkedHashMap<>();
        wrongNetwork.put("sub_link_id", link.get("id").asString());
        wrongNetwork.put("merchant_key", "mk_test_x");
        wrongNetwork.put("tx_hash", txHash());
        wrongNetwork.put("network_id", SEPOLIA_ID);
        wrongNetwork.put("currency_id", USDC_CURRENCY_ID);
        wrongNetwork.put("amount_paid", "10000000");
        wrongNetwork.put("wallet_used", WALLET);
        send(merchant, HttpMethod.POST, "/public/subscriptions/link/payment", wrongNetwork)
                .expectStatus()
                .isBadRequest();
        wrongNetwork.remove("merchant_key");
        send(merchant, HttpMethod.POST, "/public/subscriptions/link/payment", wrongNetwork)
                .expectStatus()
                .isBadRequest();
        send(null, HttpMethod.POST, "/public/subscriptions/link/payment", wrongNetwork)
                .expectStatus()
                .isUnauthorized();
    }

    @Test
    void twoSchedulersOnOneDatabaseNeverAnnounceOrFailTwice() {
        MerchantIdentity merchant = newMerchant();
        JsonNode plan = createPlan(merchant, amountPlan("Busy"));
        Instant enrolledAt = clock.instant();
        int count = 10;
        for (int i = 0; i < count; i++) {
            // Half enrol for real (and expire within the notice), half name a transaction that never subscribed.
            String subscriberId = createSubscriber(merchant, plan.get("id").asString(), "Customer " + i, null)
                    .get("id")
                    .asString();
            if (i % 2 == 0) {
                JsonNode link = enrol(plan.get("id").asString(), subscriberId);
                send(
                                merchant,
                                HttpMethod.PUT,
                                "/subscriptions/link/" + link.get("id").asString(),
                                Map.of(
                                        "expires_at",
                                        enrolledAt.plus(Duration.ofDays(2)).toString()))
                        .expectStatus()
                        .isOk();
            } else {
                send(
                                null,
                                HttpMethod.POST,
                                "/public/subscriptions/link/",
                                enrolment(plan.get("id").asString(), subscriberId, "120000000"))
                        .expectStatus()
                        .isCreated();
            }
        }
        BillingScheduler second =
                new BillingScheduler(billing, links, subscribers, plans, changes, tx, properties, clock);

        clock.set(enrolledAt.plus(properties.billing().enrolmentWait()).plusSeconds(1));
        List<Integer> applied = Mono.zip(
                        scheduler.runDue().subscribeOn(Schedulers.parallel()),
                        second.runDue().subscribeOn(Schedulers.parallel()),
                        List::of)
                .block();
        assertThat(applied.get(0) + applied.get(1))
                .as("other tests' links may be due too")
                .isGreaterThanOrEqualTo(count);
        assertThat(scheduler.runDue().block() + second.runDue().block()).isZero();

        List<ConsumerRecord<String, String>> records = merchantEvents(merchant, count / 2 * 3);
        assertThat(records)
                .filteredOn(r -> "subscription.expiring".equals(TestKafka.header(r, "event-type")))
                .hasSize(count / 2);
        JsonNode listing = read(get(merchant, "/subscriptions/link/?page_size=100")
                .expectStatus()
                .isOk());
        assertThat(listing.get("links"))
                .extracting(l -> l.get("chain_status").asString())
                .containsOnly("subscribed", "failed")
                .filteredOn("failed"::equals)
                .hasSize(count / 2);
    }
}
