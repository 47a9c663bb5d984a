package dev.cryptopay.subscriptions.subscription;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cryptopay.auth.internal.MerchantIdentity;
import dev.cryptopay.subscriptions.SubscriptionsTestBase;
import dev.cryptopay.testsupport.TestKafka;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpMethod;
import org.springframework.test.web.reactive.server.WebTestClient;
import tools.jackson.databind.JsonNode;

/** Who may change a link, and how a lock holds. */
class LinkChangesTest extends SubscriptionsTestBase {

    @Test
    void theCustomerChangesItsDetailsAndExpiryLocksAndStops() {
        MerchantIdentity merchant = newMerchant();
        JsonNode plan = createPlan(merchant, amountPlan("Pro"));
        String subscriberId = createSubscriber(merchant, plan.get("id").asString(), "Ada", "ada@example.com")
                .get("id")
                .asString();
        JsonNode link = enrol(plan.get("id").asString(), subscriberId);
        String linkId = link.get("id").asString();
        String expiry = clock.instant().plus(Duration.ofDays(200)).toString();

        JsonNode changed = read(walletPut(linkId, Map.of("customer_name", "Ada L.", "expires_at", expiry))
                .expectStatus()
                .isOk());
        assertThat(changed.get("customer_name").asString()).isEqualTo("Ada L.");
        assertThat(Instant.parse(changed.get("expires_at").asString())).isEqualTo(Instant.parse(expiry));
        assertThat(changed.get("merchant_user_id").isNull())
                .as("public answers leave the merchant out")
                .isTrue();

        for (Map<String, Object> merchantOnly :
                List.<Map<String, Object>>of(Map.of("owed", "0"), Map.of("trial_ends_at", expiry))) {
            assertThat(read(walletPut(linkId, merchantOnly).expectStatus().isEqualTo(409))
                            .get("code")
                            .asString())
                    .isEqualTo("merchant_only");
        }
        walletPut(linkId, Map.of("expires_at", "2001-01-01T00:00:00Z"))
                .expectStatus()
                .isBadRequest();
        walletPut(linkId, Map.of("colour", "red")).expectStatus().isBadRequest();

        assertThat(read(walletPut(linkId, Map.of("locked", true)).expectStatus().isOk())
                        .get("locked")
                        .asBoolean())
                .isTrue();
        JsonNode refused = read(walletPut(linkId, Map.of("customer_name", "Mallory"))
                .expectStatus()
                .isEqualTo(423));
        assertThat(refused.get("code").asString()).isEqualTo("link_locked");
        walletPut(linkId, Map.of("locked", false)).expectStatus().isEqualTo(423);
        send(merchant, HttpMethod.PUT, "/subscriptions/link/" + link.get("id").asString(), Map.of("owed", "5"))
                .expectStatus()
                .isEqualTo(423);

        JsonNode unlocked = read(send(
                        merchant,
                        HttpMethod.PUT,
                        "/subscriptions/link/" + link.get("id").asString(),
                        Map.of("locked", false))
                .expectStatus()
                .isOk());
        assertThat(unlocked.get("locked").asBoolean()).isFalse();
        assertThat(unlocked.get("merchant_user_id").asString())
                .isEqualTo(merchant.merchantId().toString());

        JsonNode stopped = read(
                walletPut(linkId, Map.of("is_active", false)).expectStatus().isOk());
        assertThat(stopped.get("is_active").asBoolean()).isFalse();
        assertThat(read(get(merchant, "/subscriber/" + subscriberId)
                                .expectStatus()
                                .isOk())
                        .get("status")
                        .asString())
                .isEqualTo("cancelled");
        assertThat(merchantEvents(merchant, 3))
                .extracting(r -> TestKafka.header(r, "event-type"))
                .containsExactly("subscription.created", "subscription.activated", "subscription.cancelled");
        assertThat(read(walletPut(linkId, Map.of("is_active", true))
                                .expectStatus()
                                .isEqualTo(409))
                        .get("code")
                        .asString())
                .isEqualTo("merchant_only");

        walletPut(UUID.randomUUID().toString(), Map.of("locked", true))
                .expectStatus()
                .isNotFound();
        walletPut("nope", Map.of("locked", true)).expectStatus().isBadRequest();
    }

    @Test
    void theMerchantMovesTheTrialSetsDebtAndReactivates() {
        MerchantIdentity merchant = newMerchant();
        JsonNode plan = createPlan(merchant, amountPlan("Pro"));
        JsonNode link = enrol(
                plan.get("id").asString(),
                createSubscriber(merchant, plan.get("id").asString(), "Ada", "ada@example.com")
                        .get("id")
                        .asString());
        String uri = "/subscriptions/link/" + link.get("id").asString();
        // The chain's clock (where the trial started) may be ahead of the service's: other tests move it.
        Instant shorterTrial =
                Instant.parse(link.get("subscribed_at").asString()).plus(Duration.ofDays(2));

        JsonNode changed = read(send(
                        merchant,
                        HttpMethod.PUT,
                        uri,
                        Map.of("trial_ends_at", shorterTrial.toString(), "owed", "1234", "is_active", false))
                .expectStatus()
                .isOk());
        assertThat(Instant.parse(changed.get("trial_ends_at").asString())).isEqualTo(shorterTrial);
        assertThat(changed.get("owed").asString()).isEqualTo("1234");
        assertThat(changed.get("is_active").asBoolean()).isFalse();
        assertThat(read(send(merchant, HttpMethod.PUT, uri, Map.of("is_active", true))
                                .expectStatus()
                                .isOk())
                        .get("is_active")
                        .asBoolean())
                .isTrue();

        send(newMerchant(), HttpMethod.PUT, uri, Map.of("locked", false))
                .expectStatus()
                .isNotFound();
        send(merchant, HttpMethod.PUT, uri, Map.of("owed", "-1")).expectStatus().isBadRequest();
    }

    @Test
    void onlyTheLinksWalletChangesItAndOnlyThisRequest() {
        MerchantIdentity merchant = newMerchant();
        String linkId = enrolledLink(merchant);
        Map<String, Object> stop = Map.of("is_active", false);

        assertThat(read(send(null, HttpMethod.PUT, "/public/subscriptions/link/" + linkId, stop)
                                .expectStatus()
                                .isUnauthorized())
                        .get("code")
                        .asString())
                .as("the link id alone changes nothing: wallet lookups list ids")
                .isEqualTo("wallet_signature_required");
        assertThat(read(walletPut(linkId, stop, OTHER_KEY, clock.instant())
                                .expectStatus()
                                .isUnauthorized())
                        .get("code")
                        .asString())
                .isEqualTo("invalid_wallet_signature");
        walletPut(linkId, stop, WALLET_KEY, clock.instant().minus(Duration.ofMinutes(6)))
                .expectStatus()
                .isUnauthorized();

        // A signature of one body does not carry another.
        String path = "/public/subscriptions/link/" + linkId;
        var signedLock =
                walletHeaders(linkId, json.writeValueAsString(Map.of("locked", true)), WALLET_KEY, clock.instant());
        as(null, HttpMethod.PUT, path)
                .headers(headers -> headers.addAll(signedLock))
                .contentType(org.springframework.http.MediaType.APPLICATION_JSON)
                .bodyValue(json.writeValueAsString(stop))
                .exchange()
                .expectStatus()
                .isUnauthorized();

        assertThat(read(get(merchant, "/subscriptions/link/" + linkId)
                                .expectStatus()
                                .isOk())
                        .get("is_active")
                        .asBoolean())
                .isTrue();
    }

    @Test
    void aWalletProofOpensOneChangeOnThisDeploymentOnly() {
        MerchantIdentity merchant = newMerchant();
        String linkId = enrolledLink(merchant);
        String path = "/public/subscriptions/link/" + linkId;
        String rename = json.writeValueAsString(Map.of("customer_name", "Ada L."));
        String nonce = "n" + UUID.randomUUID().toString().replace("-", "");

        // Made for the production deployment: worthless in the sandbox, whatever else it binds.
        assertThat(read(put(
                                        path,
                                        rename,
                                        walletHeadersFor(
                                                "api.cryptopay.dev", path, rename, WALLET_KEY, clock.instant(), nonce))
                                .expectStatus()
                                .isUnauthorized())
                        .get("code")
                        .asString())
                .isEqualTo("invalid_wallet_signature");

        // Seen on the way and sent again while it is fresh: the second use is refused, and so is any other proof
        // of that wallet with the same nonce.
        var proof = walletHeadersFor(SIGNED_HOST, path, rename, WALLET_KEY, clock.instant(), nonce);
        put(path, rename, proof).expectStatus().isOk();
        assertThat(read(put(path, rename, proof).expectStatus().isUnauthorized())
                        .get("code")
                        .asString())
                .isEqualTo("wallet_signature_replayed");
        String stop = json.writeValueAsString(Map.of("is_active", false));
        assertThat(read(put(path, stop, walletHeadersFor(SIGNED_HOST, path, stop, WALLET_KEY, clock.instant(), nonce))
                                .expectStatus()
                                .isUnauthorized())
                        .get("code")
                        .asString())
                .isEqualTo("wallet_signature_replayed");
        assertThat(read(get(merchant, "/subscriptions/link/" + linkId)
                                .expectStatus()
                                .isOk())
                        .get("is_active")
                        .asBoolean())
                .isTrue();

        // A nonce that cannot be one (too short to be unguessable) is refused before anything is recorded.
        assertThat(read(put(path, stop, walletHeadersFor(SIGNED_HOST, path, stop, WALLET_KEY, clock.instant(), "1"))
                                .expectStatus()
                                .isUnauthorized())
                        .get("code")
                        .asString())
                .isEqualTo("invalid_wallet_signature");
        // Once the window is over the nonce is forgotten, and a proof with it is refused as expired anyway.
        clock.advance(Duration.ofMinutes(6));
        assertThat(read(put(path, rename, proof).expectStatus().isUnauthorized())
                        .get("code")
                        .asString())
                .isEqualTo("invalid_wallet_signature");
        // A fresh proof with a new nonce still works.
        put(path, stop, walletHeadersFor(path, stop, WALLET_KEY, clock.instant()))
                .expectStatus()
                .isOk();
    }

    /** The link of Ada, invited to a new plan of the merchant and enrolled with the test wallet. */
    private String enrolledLink(MerchantIdentity merchant) {
        String planId = createPlan(merchant, amountPlan("Pro")).get("id").asString();
        return enrol(
                        planId,
                        createSubscriber(merchant, planId, "Ada", "ada@example.com")
                                .get("id")
                                .asString())
                .get("id")
                .asString();
    }

    private WebTestClient.ResponseSpec put(String path, String body, org.springframework.http.HttpHeaders proof) {
        return as(null, HttpMethod.PUT, path)
                .headers(headers -> headers.addAll(proof))
                .contentType(org.springframework.http.MediaType.APPLICATION_JSON)
                .bodyValue(body)
                .exchange();
    }

    @Test
    void anEnrolmentNeverTakesACustomerIdNotEvenTheInvitationsOwn() {
        MerchantIdentity merchant = newMerchant();
        String planId = createPlan(merchant, amountPlan("Pro")).get("id").asString();
        Map<String, Object> invite = new java.util.LinkedHashMap<>();
        invite.put("subscription_plan_id", planId);
        invite.put("customer_id", "cus_42");
        String invited = read(send(merchant, HttpMethod.POST, "/subscriber/", invite)
                        .expectStatus()
                        .isCreated())
                .get("id")
                .asString();

        for (String customerId : List.of("cus_43", "cus_42")) {
            Map<String, Object> named = enrolment(planId, invited, "120000000");
            named.put("customer_id", customerId);
            JsonNode refused = read(send(null, HttpMethod.POST, "/public/subscriptions/link/", named)
                    .expectStatus()
                    .isBadRequest());
            assertThat(refused.get("errors").get(0).get("field").asString()).isEqualTo("customer_id");
        }
        send(null, HttpMethod.POST, "/public/subscriptions/link/", enrolment(planId, invited, "120000000"))
                .expectStatus()
                .isCreated();
        assertThat(read(get(merchant, "/subscriber/" + invited).expectStatus().isOk())
                        .get("customer_id")
                        .asString())
                .as("the merchant's own reference stays")
                .isEqualTo("cus_42");
    }

    @Test
    void anEnrolledSubscriberChangesOnlyWithItsWalletsSignature() {
        MerchantIdentity merchant = newMerchant();
        JsonNode plan = createPlan(merchant, amountPlan("Pro"));
        String subscriberId = createSubscriber(merchant, plan.get("id").asString(), "Ada", "ada@example.com")
                .get("id")
                .asString();
        String uri = "/public/subscriber/" + subscriberId;
        // Before enrolment the invitation link is all the customer has: it may change the details.
        send(null, HttpMethod.PUT, uri, Map.of("customer_name", "Ada L."))
                .expectStatus()
                .isOk();
        enrol(plan.get("id").asString(), subscriberId);

        JsonNode unsigned = read(send(null, HttpMethod.PUT, uri, Map.of("status", "cancelled"))
                .expectStatus()
                .isUnauthorized());
        assertThat(unsigned.get("code").asString()).isEqualTo("wallet_signature_required");
        JsonNode stranger = read(walletPutSubscriber(subscriberId, Map.of("customer_email", "x@evil.test"), OTHER_KEY)
                .expectStatus()
                .isUnauthorized());
        assertThat(stranger.get("code").asString()).isEqualTo("invalid_wallet_signature");
        JsonNode own =
                read(get(merchant, "/subscriber/" + subscriberId).expectStatus().isOk());
        assertThat(own.get("status").asString()).as("nothing changed").isEqualTo("active");
        assertThat(own.get("customer_email").asString()).isEqualTo("ada@example.com");

        assertThat(read(walletPutSubscriber(subscriberId, Map.of("status", "cancelled"), WALLET_KEY)
                                .expectStatus()
                                .isOk())
                        .get("status")
                        .asString())
                .isEqualTo("cancelled");
    }

    @Test
    void aLockHoldsOnTheSubscriberToo() {
        MerchantIdentity merchant = newMerchant();
        JsonNode plan = createPlan(merchant, amountPlan("Pro"));
        String subscriberId = createSubscriber(merchant, plan.get("id").asString(), "Ada", "ada@example.com")
                .get("id")
                .asString();
        String linkId = enrol(plan.get("id").asString(), subscriberId).get("id").asString();
        walletPut(linkId, Map.of("locked", true)).expectStatus().isOk();

        walletPutSubscriber(subscriberId, Map.of("status", "cancelled"), WALLET_KEY)
                .expectStatus()
                .isEqualTo(423);
        walletPutSubscriber(subscriberId, Map.of("customer_name", "Ada L."), WALLET_KEY)
                .expectStatus()
                .isOk();
        send(merchant, HttpMethod.PUT, "/subscriptions/link/" + linkId, Map.of("locked", true))
                .expectStatus()
                .isOk(); // locking a locked link changes nothing
    }

    @Test
    void aMerchantRestartingALinkReactivatesItsSubscriberWithoutBackCharges() {
        MerchantIdentity merchant = newMerchant();
        JsonNode plan = createPlan(merchant, amountPlan("Pro"));
        String subscriberId = createSubscriber(merchant, plan.get("id").asString(), "Ada", "ada@example.com")
                .get("id")
                .asString();
        String uri = "/subscriptions/link/"
                + enrol(plan.get("id").asString(), subscriberId).get("id").asString();
        send(merchant, HttpMethod.PUT, uri, Map.of("is_active", false))
                .expectStatus()
                .isOk();
        clock.advance(Duration.ofDays(90));

        send(merchant, HttpMethod.PUT, uri, Map.of("is_active", true))
                .expectStatus()
                .isOk();

        assertThat(read(get(merchant, "/subscriber/" + subscriberId)
                                .expectStatus()
                                .isOk())
                        .get("status")
                        .asString())
                .isEqualTo("active");
        send(merchant, HttpMethod.PUT, uri, Map.of("trial_ends_at", "2000-01-01T00:00:00Z"))
                .expectStatus()
                .isBadRequest();
    }
}
