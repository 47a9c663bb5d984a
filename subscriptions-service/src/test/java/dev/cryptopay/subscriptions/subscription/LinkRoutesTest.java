package dev.cryptopay.subscriptions.subscription;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cryptopay.auth.Mode;
import dev.cryptopay.auth.internal.MerchantIdentity;
import dev.cryptopay.subscriptions.SubscriptionsTestBase;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.r2dbc.core.DatabaseClient;
import tools.jackson.databind.JsonNode;

/**
 * The merchant's reads of links. Links are made by the customer's enrolment (a public route built separately), so
 * the test writes the enrolment rows the way that route will.
 */
class LinkRoutesTest extends SubscriptionsTestBase {

    private static final String WALLET = "0x90F79bf6EB2c4f870365E785982E1f101E93b906";

    @Autowired
    DatabaseClient database;

    @Test
    void readsALinkWithItsCustomerPlanAndPayments() {
        MerchantIdentity merchant = newMerchant();
        JsonNode plan = createPlan(merchant, amountPlan("Pro"));
        JsonNode subscriber = createSubscriber(merchant, plan.get("id").asString(), "Ada", "ada@example.com");
        Instant subscribedAt = clock.instant();
        UUID linkId = enrol(merchant, plan, subscriber, subscribedAt);
        UUID paymentId = pay(merchant, linkId, plan, subscribedAt.plus(Duration.ofDays(7)));

        JsonNode link = read(
                get(merchant, "/subscriptions/link/" + linkId).expectStatus().isOk());

        assertThat(link.get("id").asString()).isEqualTo(linkId.toString());
        assertThat(link.get("merchant_user_id").asString())
                .isEqualTo(merchant.merchantId().toString());
        assertThat(link.get("subscription_plan_id").asString())
                .isEqualTo(plan.get("id").asString());
        assertThat(link.get("wallet_address").asString()).isEqualTo(WALLET);
        assertThat(link.get("subscribe_hash").asString()).isEqualTo("0x" + "ab".repeat(32));
        assertThat(link.get("approvals").get(0).get("allowance").asString()).isEqualTo("120000000");
        assertThat(link.get("owed").asString()).isEqualTo("0");
        assertThat(link.get("paid_periods").asInt()).isEqualTo(1);
        assertThat(link.get("locked").asBoolean()).isFalse();
        assertThat(link.get("customer_name").asString()).isEqualTo("Ada");
        assertThat(link.get("customer_email").asString()).isEqualTo("ada@example.com");
        assertThat(link.get("is_active").asBoolean()).isTrue();
        assertThat(Instant.parse(link.get("trial_ends_at").asString()))
                .isEqualTo(subscribedAt.plus(Duration.ofDays(7)));
        assertThat(link.get("plan").get("name").asString()).isEqualTo("Pro");
        assertThat(link.get("plan").get("formatted_amount").asString()).isEqualTo("10");
        assertThat(link.get("plan").get("chain_id").asLong()).isEqualTo(31337);
        JsonNode payment = link.get("subscription_transactions").get(0);
        assertThat(payment.get("id").asString()).isEqualTo(paymentId.toString());
        assertThat(payment.get("sub_link_id").asString()).isEqualTo(linkId.toString());
        assertThat(payment.get("merchant_id").asString())
                .isEqualTo(merchant.merchantId().toString());
        assertThat(payment.get("tx_hash").asString()).isEqualTo("0x" + "cd".repeat(32));
        assertThat(payment.get("block_number").asLong()).isEqualTo(42);
        assertThat(payment.get("confirmations").asInt()).isEqualTo(3);
        assertThat(payment.get("amount").asString()).isEqualTo("10000000");
        assertThat(payment.get("currency_id").asString()).isEqualTo(USDC_CURRENCY_ID);
        assertThat(payment.get("network_id").asString()).isEqualTo(DEV_CHAIN_ID);
        assertThat(payment.get("user_wallet_address").asString()).isEqualTo(WALLET);
        assertThat(payment.get("status").asString()).isEqualTo("confirmed");
        assertThat(payment.get("next_billing_at").asString()).isNotBlank();
        assertThat(payment.get("plan").get("id").asString())
                .isEqualTo(plan.get("id").asString());

        JsonNode nested = read(get(
                                merchant, "/subscriber/" + subscriber.get("id").asString())
                        .expectStatus()
                        .isOk())
                .get("subscription_link");
        assertThat(nested.get("id").asString()).isEqualTo(linkId.toString());
        assertThat(nested.has("subscription_transactions")).isFalse();
    }

    @Test
    void aPlanCountsActiveSubscribersStillInTheirTrial() {
        MerchantIdentity merchant = newMerchant();
        JsonNode plan = createPlan(merchant, amountPlan("Pro"));
        String planUri = "/subscriptions/plans/" + plan.get("id").asString();
        JsonNode inTrial = createSubscriber(merchant, plan.get("id").asString(), "Ada", "ada@example.com");
        JsonNode trialOver = createSubscriber(merchant, plan.get("id").asString(), "Bob", "bob@example.com");
        enrol(merchant, plan, inTrial, clock.instant());
        enrol(merchant, plan, trialOver, clock.instant().minus(Duration.ofDays(8)));
        for (JsonNode subscriber : List.of(inTrial, trialOver)) {
            send(
                            merchant,
                            org.springframework.http.HttpMethod.PUT,
                            "/subscriber/" + subscriber.get("id").asString(),
                            java.util.Map.of("status", "active"))
                    .expectStatus()
                    .isOk();
        }

        JsonNode counted = read(get(merchant, planUri).expectStatus().isOk());
        assertThat(counted.get("active_subscribers").asLong()).isEqualTo(2);
        assertThat(counted.get("trial_subscribers").asLong()).isEqualTo(1);

        clock.advance(Duration.ofDays(8));
        assertThat(read(get(merchant, planUri).expectStatus().isOk())
                        .get("trial_subscribers")
                        .asLong())
                .as("judged at the service's clock")
                .isZero();
    }

    @Test
    void listsPagesAndFilters() {
        MerchantIdentity merchant = newMerchant();
        JsonNode pro = createPlan(merchant, amountPlan("Pro"));
        JsonNode basic = createPlan(merchant, valuePlan("Basic"));
        for (int i = 0; i < 11; i++) {
            enrol(
                    merchant,
                    pro,
                    createSubscriber(merchant, pro.get("id").asString(), "P" + i, "p" + i + "@x.test"),
                    clock.instant());
            clock.advance(Duration.ofSeconds(1));
        }
        UUID grace = enrol(
                merchant,
                basic,
                createSubscriber(merchant, basic.get("id").asString(), "Grace Hopper", "grace@navy.test"),
                clock.instant());
        database.sql("UPDATE subscription_link SET is_active = false WHERE id = :id")
                .bind("id", grace)
                .then()
                .block();

        JsonNode all = read(get(merchant, "/subscriptions/link/").expectStatus().isOk());
        assertThat(all.get("total").asLong()).isEqualTo(12);
        assertThat(all.get("page_size").asInt()).isEqualTo(10);
        assertThat(all.get("total_pages").asLong()).isEqualTo(2);
        assertThat(all.get("links")).hasSize(10);
        assertThat(read(get(merchant, "/subscriptions/link/?is_active=false")
                                .expectStatus()
                                .isOk())
                        .get("links")
                        .get(0)
                        .get("id")
                        .asString())
                .isEqualTo(grace.toString());
        assertThat(read(get(
                                        merchant,
                                        "/subscriptions/link/?plan_id="
                                                + pro.get("id").asString())
                                .expectStatus()
                                .isOk())
                        .get("total")
                        .asLong())
                .isEqualTo(11);
        assertThat(read(get(merchant, "/subscriptions/link/?search=hopper")
                                .expectStatus()
                                .isOk())
                        .get("total")
                        .asLong())
                .isEqualTo(1);
        assertThat(read(get(merchant, "/subscriptions/link/?start_date=2999-01-01")
                                .expectStatus()
                                .isOk())
                        .get("total")
                        .asLong())
                .isZero();
        for (String bad : List.of("is_active=maybe", "plan_id=1", "page_size=500", "end_date=tomorrow")) {
            get(merchant, "/subscriptions/link/?" + bad).expectStatus().isBadRequest();
        }
    }

    @Test
    void anotherMerchantOrModeSeesNothing() {
        MerchantIdentity merchant = newMerchant();
        JsonNode plan = createPlan(merchant, amountPlan("Pro"));
        UUID linkId = enrol(
                merchant,
                plan,
                createSubscriber(merchant, plan.get("id").asString(), "Ada", "ada@example.com"),
                clock.instant());
        for (MerchantIdentity stranger :
                List.of(newMerchant(), new MerchantIdentity(merchant.merchantId(), Mode.LIVE))) {
            get(stranger, "/subscriptions/link/" + linkId).expectStatus().isNotFound();
            assertThat(read(get(stranger, "/subscriptions/link/").expectStatus().isOk())
                            .get("total")
                            .asLong())
                    .isZero();
        }
        get(merchant, "/subscriptions/link/zzz").expectStatus().isBadRequest();
        get(merchant, "/subscriptions/link/" + UUID.randomUUID()).expectStatus().isNotFound();
    }

    private UUID enrol(MerchantIdentity merchant, JsonNode plan, JsonNode subscriber, Instant at) {
        UUID id = UUID.randomUUID();
        database.sql("""
                        INSERT INTO subscription_link (id, merchant_id, mode, plan_id, subscriber_id, wallet_address,
                            subscribe_hash, chain_status, approvals, owed, paid_periods, subscribed_at, trial_ends_at,
                            expires_at, created_at, updated_at)
                        VALUES (:id, :merchant, 'test', :plan, :subscriber, :wallet, :hash, 'subscribed',
                            '[{"token":"0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512","allowance":"120000000"}]',
                            0, 1, :at, :trialEnds, :expires, :at, :at)""")
                .bind("id", id)
                .bind("merchant", merchant.merchantId())
                .bind("plan", UUID.fromString(plan.get("id").asString()))
                .bind("subscriber", UUID.fromString(subscriber.get("id").asString()))
                .bind("wallet", WALLET)
                .bind("hash", "0x" + "ab".repeat(32))
                .bind("at", at.atOffset(ZoneOffset.UTC))
                .bind("trialEnds", at.plus(Duration.ofDays(7)).atOffset(ZoneOffset.UTC))
                .bind("expires", at.plus(Duration.ofDays(365)).atOffset(ZoneOffset.UTC))
                .then()
                .block();
        return id;
    }

    private UUID pay(MerchantIdentity merchant, UUID linkId, JsonNode plan, Instant startsAt) {
        UUID id = UUID.randomUUID();
        database.sql("""
                        INSERT INTO subscription_payment (id, merchant_id, mode, link_id, network_id, tx_hash,
                            block_number, block_hash, confirmations, amount, user_wallet_address, status, paid_at,
                            starts_at, ends_at, next_billing_at, created_at, updated_at)
                        VALUES (:id, :merchant, 'test', :link, :network, :hash, 42, :blockHash, 3, :amount, :wallet,
                            'confirmed', :starts, :starts, :ends, :ends, :starts, :starts)""")
                .bind("id", id)
                .bind("merchant", merchant.merchantId())
                .bind("link", linkId)
                .bind("network", UUID.fromString(plan.get("network_id").asString()))
                .bind("hash", "0x" + "cd".repeat(32))
                .bind("blockHash", "0x" + "ef".repeat(32))
                .bind("amount", new BigDecimal(plan.get("amount").asString()))
                .bind("wallet", WALLET)
                .bind("starts", startsAt.atOffset(ZoneOffset.UTC))
                .bind("ends", startsAt.plus(Duration.ofDays(30)).atOffset(ZoneOffset.UTC))
                .then()
                .block();
        return id;
    }
}
