package dev.cryptopay.subscriptions.customer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cryptopay.auth.internal.MerchantIdentity;
import dev.cryptopay.subscriptions.SubscriptionsTestBase;
import dev.cryptopay.subscriptions.plan.PlanTerms;
import dev.cryptopay.subscriptions.plan.SubscriptionContractCalls;
import dev.cryptopay.subscriptions.subscription.Invitation;
import dev.cryptopay.testsupport.TestKafka;
import dev.cryptopay.testsupport.chain.DevChain;
import dev.cryptopay.testsupport.chain.DevTokens;
import java.math.BigInteger;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpMethod;
import org.springframework.test.web.reactive.server.WebTestClient;
import org.web3j.protocol.core.methods.response.TransactionReceipt;
import tools.jackson.databind.JsonNode;

/** The routes a customer's wallet and checkout call: no merchant identity, only the gateway's token. */
@SuppressWarnings("unchecked")
class CustomerRoutesTest extends SubscriptionsTestBase {

    private static final String SUBSCRIBE_HASH = "0x" + "ab".repeat(32);

    @Test
    void publicPlansShowActivePlansWithCustomerFieldsOnly() {
        MerchantIdentity merchant = newMerchant();
        Map<String, Object> terms = amountPlan("Public Pro");
        terms.put("merchant", OTHER_ADDRESS);
        JsonNode plan =
                read(send(merchant, HttpMethod.POST, "/subscriptions/plans/", signed(merchant, terms, OTHER_KEY))
                        .expectStatus()
                        .isCreated());
        String id = plan.get("id").asString();
        createSubscriber(merchant, id, "Ada", "ada@example.com");

        JsonNode list = read(publicGet("/public/subscriptions/plans/?merchant=" + OTHER_ADDRESS.toLowerCase())
                .expectStatus()
                .isOk());
        assertThat(list.get("plans")).extracting(p -> p.get("id").asString()).contains(id);
        JsonNode shown = list.get("plans").get(0);
        assertThat(shown.get("merchant_address").asString()).isEqualTo(OTHER_ADDRESS);
        assertThat(shown.get("digest").asString()).isEqualTo(plan.get("digest").asString());
        assertThat(shown.get("merchant_sig").asString()).matches("0x[0-9a-f]{130}");
        assertThat(shown.get("decimals").asInt()).isEqualTo(6);
        assertThat(shown.get("livemode").asBoolean()).isFalse();
        for (String hidden : List.of("merchant_id", "total_subscribers", "subscribers", "active_subscribers")) {
            assertThat(shown.has(hidden)).as(hidden).isFalse();
        }
        assertThat(list.get("page_size").asInt()).isEqualTo(10);
        assertThat(read(publicGet("/public/subscriptions/plans").expectStatus().isOk())
                        .get("total")
                        .asLong())
                .as("a bare call answers the list")
                .isPositive();
        assertThat(read(publicGet("/public/subscriptions/plans/?network_id=" + SEPOLIA_ID + "&merchant="
                                        + OTHER_ADDRESS)
                                .expectStatus()
                                .isOk())
                        .get("total")
                        .asLong())
                .isZero();

        as(merchant, HttpMethod.DELETE, "/subscriptions/plans/" + id)
                .exchange()
                .expectStatus()
                .isOk();
        assertThat(read(publicGet("/public/subscriptions/plans/?merchant=" + OTHER_ADDRESS)
                                .expectStatus()
                                .isOk())
                        .get("plans"))
                .extracting(p -> p.get("id").asString())
                .doesNotContain(id);
        assertThat(read(publicGet("/public/subscriptions/plans/" + id)
                                .expectStatus()
                                .isOk())
                        .get("status")
                        .asString())
                .as("a deprecated plan stays readable by id for its subscribers")
                .isEqualTo("deprecated");

        publicGet("/public/subscriptions/plans/?merchant=0x12").expectStatus().isBadRequest();
        publicGet("/public/subscriptions/plans/?network_id=x").expectStatus().isBadRequest();
        publicGet("/public/subscriptions/plans/" + UUID.randomUUID())
                .expectStatus()
                .isNotFound();
        publicGet("/public/subscriptions/plans/nope").expectStatus().isBadRequest();
    }

    @Test
    void prepareAnswersWhatTheWalletSignsAndApproves() {
        MerchantIdentity merchant = newMerchant();
        JsonNode plan = createPlan(merchant, amountPlan("Pro"));
        String subscriberId = createSubscriber(merchant, plan.get("id").asString(), "Ada", "ada@example.com")
                .get("id")
                .asString();

        allowContract(WALLET, BigInteger.ZERO); // no allowance left by other tests: the kit approves the periods alone
        JsonNode kit = read(publicGet("/public/subscriber/prepare?subscriber_id=" + subscriberId + "&wallet_address="
                        + WALLET.toLowerCase() + "&periods=6")
                .expectStatus()
                .isOk());

        assertThat(kit.get("subscriber_id").asString()).isEqualTo(subscriberId);
        assertThat(kit.get("wallet_address").asString()).isEqualTo(WALLET);
        assertThat(kit.get("chain_id").asLong()).isEqualTo(31337);
        assertThat(kit.get("subscription_contract").asString()).isEqualTo("0x5FbDB2315678afecb367f032d93F642f64180aa3");
        assertThat(kit.get("digest").asString()).isEqualTo(plan.get("digest").asString());
        assertThat(kit.get("typed_data").get("primaryType").asString()).isEqualTo("SubscriptionPlan");
        JsonNode approval = kit.get("approval");
        assertThat(approval.get("token").asString()).isEqualTo(DEV_USDC);
        assertThat(approval.get("spender").asString()).isEqualTo("0x5FbDB2315678afecb367f032d93F642f64180aa3");
        assertThat(approval.get("amount").asString()).isEqualTo("60000000");
        assertThat(approval.get("formatted_amount").asString()).isEqualTo("60");
        assertThat(approval.get("decimals").asInt()).isEqualTo(6);
        assertThat(approval.get("periods").asInt()).isEqualTo(6);
        assertThat(Instant.parse(kit.get("trial_ends_at").asString()))
                .isEqualTo(clock.instant().plus(Duration.ofDays(7)));
        assertThat(Instant.parse(kit.get("subscribe_by").asString())).isAfter(clock.instant());
        assertThat(read(publicGet("/public/subscriber/prepare?subscriber_id=" + subscriberId + "&wallet_address="
                                        + WALLET)
                                .expectStatus()
                                .isOk())
                        .get("approval")
                        .get("periods")
                        .asInt())
                .isEqualTo(12);

        for (String bad : List.of(
                "wallet_address=" + WALLET,
                "subscriber_id=" + subscriberId,
                "subscriber_id=x&wallet_address=" + WALLET,
                "subscriber_id=" + subscriberId + "&wallet_address=0xabc",
                "subscriber_id=" + subscriberId + "&wallet_address=" + WALLET + "&periods=0")) {
            publicGet("/public/subscriber/prepare?" + bad).expectStatus().isBadRequest();
        }
        publicGet("/public/subscriber/prepare?subscriber_id=" + UUID.randomUUID() + "&wallet_address=" + WALLET)
                .expectStatus()
                .isNotFound();

        clock.advance(Duration.ofDays(2));
        JsonNode late =
                read(publicGet("/public/subscriber/prepare?subscriber_id=" + subscriberId + "&wallet_address=" + WALLET)
                        .expectStatus()
                        .isEqualTo(409));
        assertThat(late.get("code").asString()).isEqualTo("subscribe_deadline_passed");
    }

    @Test
    void anEnrolmentWaitsForTheChainAndOnlyItsConfirmedLogActivatesTheSubscriber() {
        MerchantIdentity merchant = newMerchant();
        JsonNode plan = createPlan(merchant, amountPlan("Pro"));
        String subscriberId = createSubscriber(merchant, plan.get("id").asString(), "Ada", "ada@example.com")
                .get("id")
                .asString();
        TransactionReceipt subscribed = subscribeOnChain(subscriberId, "12");

        // The wallet reports its enrolment first: a hint, recorded as pending; nothing is announced.
        Map<String, Object> body = enrolment(plan.get("id").asString(), subscriberId, "120000000");
        body.put("subscribe_hash", subscribed.getTransactionHash());
        body.put("subscribed_at", "2020-01-01T00:00:00Z");
        JsonNode pending = read(publicSend(HttpMethod.POST, "/public/subscriptions/link/", body)
                .expectStatus()
                .isCreated());
        String linkId = pending.get("id").asString();
        assertThat(pending.get("chain_status").asString()).isEqualTo("pending");
        assertThat(pending.get("is_active").asBoolean()).isFalse();
        assertThat(pending.get("subscribed_at").isNull())
                .as("the body's time is not a fact")
                .isTrue();
        assertThat(pending.get("subscriber_id").asString()).isEqualTo(subscriberId);
        assertThat(pending.get("wallet_address").asString()).isEqualTo(WALLET);
        assertThat(pending.get("approvals").get(0).get("amount_approved").asString())
                .isEqualTo("120000000");
        assertThat(read(get(merchant, "/subscriber/" + subscriberId)
                                .expectStatus()
                                .isOk())
                        .get("status")
                        .asString())
                .isEqualTo("invitation_sent");

        // The watcher reports the confirmed Subscribed log: the link is active with the chain's times.
        assertThat(reportLogs(subscribed)).containsExactly("applied");
        JsonNode link = read(
                get(merchant, "/subscriptions/link/" + linkId).expectStatus().isOk());
        Instant block = Instant.ofEpochSecond(CHAIN.web3j()
                .ethGetBlockByNumber(
                        org.web3j.protocol.core.DefaultBlockParameter.valueOf(subscribed.getBlockNumber()), false)
                .sendAsync()
                .join()
                .getBlock()
                .getTimestamp()
                .longValueExact());
        assertThat(link.get("chain_status").asString()).isEqualTo("subscribed");
        assertThat(link.get("chain_subscription_id").asString())
                .startsWith("0x")
                .hasSize(66);
        assertThat(link.get("is_active").asBoolean()).isTrue();
        assertThat(link.get("paid_periods").asInt()).isZero();
        assertThat(link.get("owed").asString()).isEqualTo("0");
        assertThat(Instant.parse(link.get("subscribed_at").asString())).isEqualTo(block);
        assertThat(Instant.parse(link.get("trial_ends_at").asString())).isEqualTo(block.plus(Duration.ofDays(7)));
        assertThat(link.get("customer_email").asString()).isEqualTo("ada@example.com");
        JsonNode subscriber =
                read(get(merchant, "/subscriber/" + subscriberId).expectStatus().isOk());
        assertThat(subscriber.get("status").asString()).isEqualTo("active");
        assertThat(subscriber.get("subscription_link").get("id").asString()).isEqualTo(linkId);

        List<ConsumerRecord<String, String>> records = merchantEvents(merchant, 2);
        assertThat(records)
                .extracting(r -> TestKafka.header(r, "event-type"))
                .containsExactly("subscription.created", "subscription.activated");
        JsonNode created = json.readTree(records.get(0).value()).get("data");
        assertThat(created.get("subscription_link_id").asString()).isEqualTo(linkId);
        assertThat(created.get("status").asString()).isEqualTo("active");

        assertThat(reportLogs(subscribed))
                .as("a repeated report changes nothing")
                .containsExactly("applied");
        JsonNode again = read(publicSend(
                        HttpMethod.POST,
                        "/public/subscriptions/link/",
                        enrolment(plan.get("id").asString(), subscriberId, "120000000"))
                .expectStatus()
                .isEqualTo(409));
        assertThat(again.get("code").asString()).isEqualTo("already_enrolled");
        publicGet("/public/subscriber/prepare?subscriber_id=" + subscriberId + "&wallet_address=" + WALLET)
                .expectStatus()
                .isEqualTo(409);

        JsonNode byWallet = read(publicGet("/public/subscriptions/link/" + WALLET.toLowerCase())
                .expectStatus()
                .isOk());
        assertThat(byWallet.get("links"))
                .extracting(l -> l.get("id").asString())
                .contains(linkId);
        JsonNode shown = byWallet.get("links").get(0);
        assertThat(shown.get("customer_email").isNull())
                .as("anyone may ask for an address")
                .isTrue();
        assertThat(shown.get("customer_name").isNull()).isTrue();
        assertThat(shown.get("subscriber_id").isNull())
                .as("the subscriber id opens the customer's own view")
                .isTrue();
        publicGet("/public/subscriptions/link/0x1234").expectStatus().isBadRequest();
    }

    @Test
    void aForgedOrForeignSubscribeHashNeverActivates() {
        MerchantIdentity merchant = newMerchant();
        JsonNode plan = createPlan(merchant, amountPlan("Pro"));
        String planId = plan.get("id").asString();
        String invited =
                createSubscriber(merchant, planId, "Ada", null).get("id").asString();
        String other = createSubscriber(merchant, planId, "Eve", null).get("id").asString();

        // A hash on no chain: pending, nothing announced.
        JsonNode forged =
                read(publicSend(HttpMethod.POST, "/public/subscriptions/link/", enrolment(planId, invited, "120000000"))
                        .expectStatus()
                        .isCreated());
        assertThat(forged.get("chain_status").asString()).isEqualTo("pending");

        // Another invitation's real transaction: its ref names the other subscriber, so it does not match.
        TransactionReceipt othersTx = subscribeOnChain(other, "12");
        Map<String, Object> stolen = enrolment(planId, invited, "120000000");
        stolen.put("subscribe_hash", othersTx.getTransactionHash());
        JsonNode retried = read(publicSend(HttpMethod.POST, "/public/subscriptions/link/", stolen)
                .expectStatus()
                .isCreated());
        assertThat(retried.get("id").asString())
                .as("a new try replaces the unconfirmed one")
                .isEqualTo(forged.get("id").asString());
        assertThat(reportLogs(othersTx)).containsExactly("unmatched");
        assertThat(read(get(merchant, "/subscriptions/link/" + retried.get("id").asString())
                                .expectStatus()
                                .isOk())
                        .get("chain_status")
                        .asString())
                .isEqualTo("pending");

        // The right subscriber naming it later gets it (the log waited, unmatched).
        Map<String, Object> owner = enrolment(planId, other, "120000000");
        owner.put("subscribe_hash", othersTx.getTransactionHash());
        assertThat(read(publicSend(HttpMethod.POST, "/public/subscriptions/link/", owner)
                                .expectStatus()
                                .isCreated())
                        .get("chain_status")
                        .asString())
                .isEqualTo("subscribed");
        List<ConsumerRecord<String, String>> records = merchantEvents(merchant, 2);
        assertThat(records)
                .extracting(r -> TestKafka.header(r, "event-type"))
                .containsExactly("subscription.created", "subscription.activated");
        assertThat(json.readTree(records.get(0).value())
                        .get("data")
                        .get("subscriber_id")
                        .asString())
                .isEqualTo(other);
    }

    @Test
    void aCustomerWithoutInvitationSignsUpThroughPrepareThenEnrols() {
        MerchantIdentity merchant = newMerchant();
        String planId = createPlan(merchant, valuePlan("Basic")).get("id").asString();
        JsonNode kit = signUp(planId);
        String subscriberId = kit.get("subscriber_id").asString();
        assertThat(kit.get("ref").asString())
                .as("the kit's subscribe names the new subscriber")
                .isEqualTo(Invitation.ref(UUID.fromString(subscriberId)));
        assertThat(read(get(merchant, "/subscriber/" + subscriberId)
                                .expectStatus()
                                .isOk())
                        .get("status")
                        .asString())
                .isEqualTo("invitation_sent");
        TransactionReceipt subscribed = sendKit(kit);
        Map<String, Object> body = enrolment(planId, subscriberId, "9990000");
        body.put("subscribe_hash", subscribed.getTransactionHash());
        body.put("customer_name", "Grace");
        body.put("customer_email", "grace@navy.test");
        JsonNode pending = read(publicSend(HttpMethod.POST, "/public/subscriptions/link/", body)
                .expectStatus()
                .isCreated());
        assertThat(pending.get("chain_status").asString()).isEqualTo("pending");
        assertThat(reportLogs(subscribed))
                .as("Subscribed, and the first period pulled in the same transaction")
                .containsExactly("applied", "applied");

        JsonNode subscribers = read(
                get(merchant, "/subscriber/?plan_id=" + planId).expectStatus().isOk());
        assertThat(subscribers.get("total").asLong()).isEqualTo(1);
        JsonNode grace = subscribers.get("subscribers").get(0);
        assertThat(grace.get("customer_name").asString()).isEqualTo("Grace");
        assertThat(grace.get("status").asString()).isEqualTo("active");
        JsonNode link =
                read(get(merchant, "/subscriptions/link/" + pending.get("id").asString())
                        .expectStatus()
                        .isOk());
        assertThat(link.get("trial_ends_at").isNull()).as("no trial period").isTrue();
        assertThat(link.get("paid_periods").asInt()).isEqualTo(1);
        assertThat(link.get("subscription_transactions").get(0).get("amount").asString())
                .as("USDC 9.99 in its units")
                .isEqualTo("9990000");

        publicGet("/public/subscriber/prepare?subscription_plan_id=" + UUID.randomUUID() + "&wallet_address=" + WALLET)
                .expectStatus()
                .isNotFound();
        publicGet("/public/subscriber/prepare?subscription_plan_id=" + planId + "&subscriber_id=" + subscriberId
                        + "&wallet_address=" + WALLET)
                .expectStatus()
                .isBadRequest();
        publicGet("/public/subscriber/prepare?wallet_address=" + WALLET)
                .expectStatus()
                .isBadRequest();
    }

    @Test
    void aReportOfAnotherWalletsTransactionActivatesNothingAndTheOwnerStillEnrols() {
        MerchantIdentity merchant = newMerchant();
        String planId = createPlan(merchant, amountPlan("Claimed")).get("id").asString();
        JsonNode customerKit = signUp(planId);
        TransactionReceipt subscribed = sendKit(customerKit);

        // Someone watching the chain reports the customer's transaction first, with a sign-up of its own.
        String thief = signUp(planId).get("subscriber_id").asString();
        Map<String, Object> claim = enrolment(planId, thief, "120000000");
        claim.put("subscribe_hash", subscribed.getTransactionHash());
        claim.put("customer_name", "Mallory");
        claim.put("customer_email", "mallory@example.com");
        String claimed = read(publicSend(HttpMethod.POST, "/public/subscriptions/link/", claim)
                        .expectStatus()
                        .isCreated())
                .get("id")
                .asString();
        assertThat(reportLogs(subscribed))
                .as("the Subscribed log names the customer's subscriber, not the claimant's")
                .containsExactly("unmatched");
        JsonNode stolen = read(
                get(merchant, "/subscriptions/link/" + claimed).expectStatus().isOk());
        assertThat(stolen.get("chain_status").asString()).isEqualTo("pending");
        assertThat(stolen.get("is_active").asBoolean()).isFalse();
        assertThat(stolen.get("chain_subscription_id").isNull()).isTrue();

        Map<String, Object> own =
                enrolment(planId, customerKit.get("subscriber_id").asString(), "120000000");
        own.put("subscribe_hash", subscribed.getTransactionHash());
        own.put("customer_name", "Grace");
        JsonNode enrolled = read(publicSend(HttpMethod.POST, "/public/subscriptions/link/", own)
                .expectStatus()
                .isCreated());
        assertThat(enrolled.get("chain_status").asString()).isEqualTo("subscribed");
        assertThat(enrolled.get("is_active").asBoolean()).isTrue();
        assertThat(read(get(merchant, "/subscriptions/link/" + claimed)
                                .expectStatus()
                                .isOk())
                        .get("chain_status")
                        .asString())
                .as("the claimant's link never becomes the customer's")
                .isEqualTo("pending");
    }

    @Test
    void aSubscriptionWithoutARefIsNeverBound() {
        MerchantIdentity merchant = newMerchant();
        String planId = createPlan(merchant, valuePlan("Unnamed")).get("id").asString();
        TransactionReceipt subscribed = subscribeByPlan(planId, new BigInteger("9990000"), "0x" + "0".repeat(64));
        String subscriberId = signUp(planId).get("subscriber_id").asString();
        Map<String, Object> body = enrolment(planId, subscriberId, "9990000");
        body.put("subscribe_hash", subscribed.getTransactionHash());
        String linkId = read(publicSend(HttpMethod.POST, "/public/subscriptions/link/", body)
                        .expectStatus()
                        .isCreated())
                .get("id")
                .asString();
        assertThat(reportLogs(subscribed)).containsExactly("unmatched", "unmatched");
        JsonNode link = read(
                get(merchant, "/subscriptions/link/" + linkId).expectStatus().isOk());
        assertThat(link.get("chain_status").asString()).isEqualTo("pending");
        assertThat(link.get("paid_periods").asInt())
                .as("its payment is nobody's")
                .isZero();
    }

    /**
     * The wallet subscribes on its own, with {@code ref}, to a plan as the public plan route shows it, after approving
     * {@code approve} base units of dev USDC.
     */
    private TransactionReceipt subscribeByPlan(String planId, BigInteger approve, String ref) {
        JsonNode plan = read(publicGet("/public/subscriptions/plans/" + planId)
                .expectStatus()
                .isOk());
        boolean byValue = !plan.get("value").isNull();
        PlanTerms terms = new PlanTerms(
                plan.get("merchant_address").asString(),
                plan.get("destination_address").asString(),
                byValue
                        ? "0x0000000000000000000000000000000000000000"
                        : plan.get("token").asString(),
                byValue ? BigInteger.ZERO : new BigInteger(plan.get("amount").asString()),
                byValue ? plan.get("currency").asString() : "",
                byValue ? plan.get("value").asString() : "",
                plan.get("interval").asLong(),
                plan.get("trial_period").asLong(),
                plan.get("max_arrears").asLong(),
                plan.get("auto_cancel_after_missed").asLong(),
                plan.get("subscribe_deadline").asLong(),
                plan.get("plan_nonce").asLong());
        CHAIN.mint(DevTokens.USDC, WALLET, approve);
        CHAIN.sendTransaction(
                WALLET,
                DEV_USDC,
                SubscriptionContractCalls.approve(DevChain.SUBSCRIPTION_CONTRACT, approve),
                BigInteger.ZERO);
        TransactionReceipt subscribed = CHAIN.sendTransaction(
                WALLET,
                DevChain.SUBSCRIPTION_CONTRACT,
                SubscriptionContractCalls.subscribe(
                        terms, plan.get("merchant_sig").asString(), ref, 0),
                BigInteger.ZERO);
        assertThat(subscribed.isStatusOK()).isTrue();
        return subscribed;
    }

    @Test
    void enrolmentValidatesEveryField() {
        MerchantIdentity merchant = newMerchant();
        String planId = createPlan(merchant, amountPlan("Pro")).get("id").asString();
        String subscriberId = createSubscriber(merchant, planId, "Ada", "ada@example.com")
                .get("id")
                .asString();

        assertEnrolmentRefused(enrolment(planId, subscriberId, "9999999"), 400, "insufficient_approval");
        Map<String, Object> otherNetwork = enrolment(planId, subscriberId, "120000000");
        ((Map<String, Object>) ((List<?>) otherNetwork.get("approvals")).get(0)).put("network_name", "Ethereum");
        assertEnrolmentRefused(otherNetwork, 400, "insufficient_approval");
        Map<String, Object> noApprovals = enrolment(planId, subscriberId, "120000000");
        noApprovals.put("approvals", List.of());
        assertEnrolmentRefused(noApprovals, 400, "validation_failed");
        Map<String, Object> badApproval = enrolment(planId, subscriberId, "120000000");
        badApproval.put("approvals", List.of(Map.of("token_address", DEV_USDC, "amount_approved", 5)));
        assertEnrolmentRefused(badApproval, 400, "validation_failed");
        Map<String, Object> badHash = enrolment(planId, subscriberId, "120000000");
        badHash.put("subscribe_hash", "0x1234");
        assertEnrolmentRefused(badHash, 400, "validation_failed");
        Map<String, Object> badWallet = enrolment(planId, subscriberId, "120000000");
        badWallet.put("wallet_address", "wallet");
        assertEnrolmentRefused(badWallet, 400, "validation_failed");
        String otherPlan = createPlan(merchant, valuePlan("Other")).get("id").asString();
        assertEnrolmentRefused(enrolment(otherPlan, subscriberId, "120000000"), 400, "validation_failed");
        Map<String, Object> wrongDecimals = enrolment(planId, subscriberId, "120000000");
        ((Map<String, Object>) ((List<?>) wrongDecimals.get("approvals")).get(0)).put("decimals", 18);
        assertEnrolmentRefused(wrongDecimals, 400, "insufficient_approval");
        Map<String, Object> owes = enrolment(planId, subscriberId, "120000000");
        owes.put("owed", "5");
        assertEnrolmentRefused(owes, 400, "validation_failed");
        Map<String, Object> locked = enrolment(planId, subscriberId, "120000000");
        locked.put("locked", true);
        assertEnrolmentRefused(locked, 400, "validation_failed");
        Map<String, Object> future = enrolment(planId, subscriberId, "120000000");
        future.put("subscribed_at", clock.instant().plus(Duration.ofHours(1)).toString());
        assertEnrolmentRefused(future, 400, "validation_failed");
        Map<String, Object> customerIdToo = enrolment(planId, subscriberId, "120000000");
        customerIdToo.put("customer_id", "cus_1");
        assertEnrolmentRefused(customerIdToo, 400, "validation_failed");
        Map<String, Object> noPlan = enrolment(planId, subscriberId, "120000000");
        noPlan.remove("subscription_plan_id");
        assertEnrolmentRefused(noPlan, 400, "validation_failed");
        Map<String, Object> past = enrolment(planId, subscriberId, "120000000");
        past.put("expires_at", "2000-01-01T00:00:00Z");
        assertEnrolmentRefused(past, 400, "validation_failed");
        assertEnrolmentRefused(enrolment(planId, UUID.randomUUID().toString(), "120000000"), 404, "not_found");
        assertEnrolmentRefused(enrolment(planId, null, "120000000"), 400, "validation_failed");

        as(merchant, HttpMethod.DELETE, "/subscriptions/plans/" + planId)
                .exchange()
                .expectStatus()
                .isOk();
        assertEnrolmentRefused(enrolment(planId, subscriberId, "120000000"), 409, "plan_deprecated");
        send(merchant, HttpMethod.PUT, "/subscriptions/plans/" + planId, Map.of("status", "active"))
                .expectStatus()
                .isOk();
        clock.advance(Duration.ofDays(2));
        assertEnrolmentRefused(enrolment(planId, subscriberId, "120000000"), 409, "subscribe_deadline_passed");
    }

    @Test
    void theCustomerReadsRenamesAndCancelsButMakesNoOtherMove() {
        MerchantIdentity merchant = newMerchant();
        String planId = createPlan(merchant, amountPlan("Pro")).get("id").asString();
        Map<String, Object> invite = new LinkedHashMap<>();
        invite.put("subscription_plan_id", planId);
        invite.put("customer_id", "cus_secret_1");
        invite.put("customer_name", "Ada");
        invite.put("customer_email", "ada@example.com");
        invite.put("webhook_metadata", Map.of("internal", "merchant-only"));
        String id = read(send(merchant, HttpMethod.POST, "/subscriber/", invite)
                        .expectStatus()
                        .isCreated())
                .get("id")
                .asString();
        String uri = "/public/subscriber/" + id;

        JsonNode own = read(publicGet(uri).expectStatus().isOk());
        assertThat(own.get("customer_email").asString()).isEqualTo("ada@example.com");
        assertThat(own.get("status").asString()).isEqualTo("invitation_sent");
        assertThat(own.get("subscription_plan").get("id").asString()).isEqualTo(planId);
        assertThat(own.get("subscription_link").isNull()).isTrue();
        assertThat(own.has("customer_id")).isFalse();
        assertThat(own.has("webhook_metadata")).isFalse();
        assertThat(own.has("merchant_user_id")).isFalse();
        assertThat(own.get("subscription_plan_id").asString()).isEqualTo(planId);
        assertThat(own.get("subscription_link_url").asString()).endsWith("/subscribe?subscriber_id=" + id);

        assertThat(read(publicSend(HttpMethod.PUT, uri, Map.of("customer_name", "Ada L."))
                                .expectStatus()
                                .isOk())
                        .get("customer_name")
                        .asString())
                .isEqualTo("Ada L.");
        JsonNode refused = read(publicSend(HttpMethod.PUT, uri, Map.of("status", "active"))
                .expectStatus()
                .isEqualTo(409));
        assertThat(refused.get("code").asString()).isEqualTo("status_not_allowed");
        assertThat(read(publicSend(HttpMethod.PUT, uri, Map.of("status", "cancelled"))
                                .expectStatus()
                                .isOk())
                        .get("status")
                        .asString())
                .isEqualTo("cancelled");
        assertThat(merchantEvents(merchant, 1))
                .extracting(r -> TestKafka.header(r, "event-type"))
                .containsExactly("subscription.cancelled");
        assertEnrolmentRefused(enrolment(planId, id, "120000000"), 409, "subscriber_cancelled");

        publicGet("/public/subscriber/" + UUID.randomUUID()).expectStatus().isNotFound();
        publicGet("/public/subscriber/123").expectStatus().isBadRequest();
        publicSend(HttpMethod.PUT, uri, Map.of("customer_email", "nope"))
                .expectStatus()
                .isBadRequest();
    }

    private void assertEnrolmentRefused(Map<String, Object> body, int status, String code) {
        JsonNode problem = read(publicSend(HttpMethod.POST, "/public/subscriptions/link/", body)
                .expectStatus()
                .isEqualTo(status));
        assertThat(problem.get("code").asString()).as(problem.toString()).isEqualTo(code);
    }

    private WebTestClient.ResponseSpec publicGet(String uri) {
        return as(null, HttpMethod.GET, uri).exchange();
    }

    private WebTestClient.ResponseSpec publicSend(HttpMethod method, String uri, Object body) {
        return send(null, method, uri, body);
    }
}
