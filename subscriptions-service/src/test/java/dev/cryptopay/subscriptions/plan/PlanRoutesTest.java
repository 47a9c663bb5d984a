package dev.cryptopay.subscriptions.plan;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cryptopay.auth.Mode;
import dev.cryptopay.auth.internal.MerchantIdentity;
import dev.cryptopay.subscriptions.SubscriptionsTestBase;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpMethod;
import tools.jackson.databind.JsonNode;

class PlanRoutesTest extends SubscriptionsTestBase {

    @Test
    void typedDataIsWhatAWalletSignsWithTheNextUnusedNonce() {
        MerchantIdentity merchant = newMerchant();
        JsonNode answer = typedData(merchant, amountPlan("Pro"));
        JsonNode typedData = answer.get("typed_data");

        assertThat(typedData.get("primaryType").asString()).isEqualTo("SubscriptionPlan");
        assertThat(typedData.get("domain").get("name").asString()).isEqualTo("Cryptopay Subscriptions");
        assertThat(typedData.get("domain").get("version").asString()).isEqualTo("1");
        assertThat(typedData.get("domain").get("chainId").asLong()).isEqualTo(31337);
        assertThat(typedData.get("domain").get("verifyingContract").asString())
                .isEqualTo("0x5FbDB2315678afecb367f032d93F642f64180aa3");
        assertThat(typedData.get("types").get("SubscriptionPlan"))
                .extracting(member ->
                        member.get("name").asString() + " " + member.get("type").asString())
                .containsExactly(
                        "merchant address",
                        "destination address",
                        "token address",
                        "amount uint256",
                        "currency string",
                        "value string",
                        "interval uint64",
                        "trialPeriod uint64",
                        "maxArrears uint64",
                        "autoCancelAfterMissed uint32",
                        "subscribeDeadline uint64",
                        "planNonce uint256");
        JsonNode message = typedData.get("message");
        assertThat(message.get("merchant").asString()).isEqualTo(MERCHANT_ADDRESS);
        assertThat(message.get("amount").asString()).isEqualTo("10000000");
        assertThat(message.get("currency").asString()).isEmpty();
        assertThat(message.get("planNonce").asString()).isEqualTo("0");
        // Same typed data through the independent path the vectors pin: the digest is the EIP-712 hash of it.
        assertThat(answer.get("digest").asString())
                .isEqualTo(PlanTypedData.of(
                                json.treeToValue(message, PlanTypedData.Message.class),
                                31337,
                                "0x5FbDB2315678afecb367f032d93F642f64180aa3")
                        .digest());

        createPlan(merchant, amountPlan("Pro"));
        assertThat(typedData(merchant, amountPlan("Pro 2"))
                        .get("typed_data")
                        .get("message")
                        .get("planNonce")
                        .asString())
                .isEqualTo("1");
        assertThat(typedData(newMerchant(), amountPlan("Elsewhere"))
                        .get("typed_data")
                        .get("message")
                        .get("planNonce")
                        .asString())
                .as("another merchant's nonces are its own")
                .isEqualTo("0");
    }

    @Test
    void createsAPlanSignedByTheMerchantAddressAndShowsEveryField() {
        MerchantIdentity merchant = newMerchant();
        Map<String, Object> body = amountPlan("Pro monthly");
        body.put("description", "All features");
        body.put("metadata_uri", "ipfs://bafy/plan.json");
        JsonNode plan = createPlan(merchant, body);

        assertThat(plan.get("merchant_id").asString())
                .isEqualTo(merchant.merchantId().toString());
        assertThat(plan.get("network_id").asString()).isEqualTo(DEV_CHAIN_ID);
        assertThat(plan.get("chain_id").asLong()).isEqualTo(31337);
        JsonNode network = plan.get("network");
        assertThat(network.get("id").asString()).isEqualTo(DEV_CHAIN_ID);
        assertThat(network.get("name").asString()).isEqualTo("Local dev chain");
        assertThat(network.get("chain_id").asLong()).isEqualTo(31337);
        assertThat(network.get("symbol").asString()).isEqualTo("ETH");
        assertThat(network.get("is_active").asBoolean()).isTrue();
        assertThat(network.get("created_at").asString()).isNotBlank();
        assertThat(network.get("updated_at").asString()).isNotBlank();
        assertThat(plan.get("merchant_address").asString()).isEqualTo(MERCHANT_ADDRESS);
        assertThat(plan.get("destination_address").asString()).isEqualTo(DESTINATION);
        assertThat(plan.get("token").asString()).isEqualTo(DEV_USDC);
        assertThat(plan.get("currency_id").asString()).isEqualTo(USDC_CURRENCY_ID);
        assertThat(plan.get("currency").isNull()).isTrue();
        assertThat(plan.get("currency_symbol").asString()).isEqualTo("USDC");
        assertThat(plan.get("effective_grace").asLong())
                .as("three days of grace, over the contract's hour")
                .isEqualTo(259200);
        assertThat(plan.get("amount").asString()).isEqualTo("10000000");
        assertThat(plan.get("formatted_amount").asString()).isEqualTo("10");
        assertThat(plan.get("interval").asLong()).isEqualTo(2592000);
        assertThat(plan.get("trial_period").asLong()).isEqualTo(604800);
        assertThat(plan.get("max_arrears").asLong()).isEqualTo(259200);
        assertThat(plan.get("auto_cancel_after_missed").asLong()).isEqualTo(3);
        assertThat(plan.get("subscribe_deadline").asLong()).isEqualTo(86400);
        assertThat(plan.get("plan_nonce").asLong()).isZero();
        assertThat(plan.get("digest").asString()).matches("0x[0-9a-f]{64}");
        assertThat(plan.get("plan_id").asString())
                .matches("0x[0-9a-f]{64}")
                .isNotEqualTo(plan.get("digest").asString());
        assertThat(plan.get("revoked").asBoolean()).isFalse();
        assertThat(plan.get("source").asString()).isEqualTo("api");
        assertThat(plan.get("kind").asString()).isEqualTo("amount");
        assertThat(plan.get("metadata_uri").asString()).isEqualTo("ipfs://bafy/plan.json");
        assertThat(plan.get("name").asString()).isEqualTo("Pro monthly");
        assertThat(plan.get("description").asString()).isEqualTo("All features");
        assertThat(plan.get("is_deprecated").asBoolean()).isFalse();
        assertThat(plan.get("deprecated_at").isNull()).isTrue();
        assertThat(plan.get("status").asString()).isEqualTo("active");
        assertThat(plan.get("total_subscribers").asLong()).isZero();
        assertThat(plan.get("active_subscribers").asLong()).isZero();
        assertThat(plan.get("trial_subscribers").asLong()).isZero();
        assertThat(plan.get("failed_subscribers").asLong()).isZero();
        assertThat(plan.get("subscribers").isArray()).isTrue();
        assertThat(plan.get("created_at").asString())
                .isEqualTo(plan.get("updated_at").asString());

        JsonNode fetched =
                read(get(merchant, "/subscriptions/plans/" + plan.get("id").asString())
                        .expectStatus()
                        .isOk());
        assertThat(fetched).isEqualTo(plan);
    }

    @Test
    void aValuePlanBillsItsValueInTheCurrencysToken() {
        MerchantIdentity merchant = newMerchant();
        JsonNode plan = createPlan(merchant, valuePlan("Basic"));

        assertThat(plan.get("kind").asString()).isEqualTo("value");
        assertThat(plan.get("token").isNull()).isTrue();
        assertThat(plan.get("currency").asString()).isEqualTo("USDC");
        assertThat(plan.get("value").asString()).isEqualTo("9.99");
        assertThat(plan.get("amount").asString()).isEqualTo("9990000");
        assertThat(plan.get("formatted_amount").asString()).isEqualTo("9.99");
        assertThat(plan.get("currency_symbol").asString()).isEqualTo("USDC");
        assertThat(plan.get("max_arrears").asLong()).isZero();
        assertThat(plan.get("effective_grace").asLong())
                .as("the contract raises a shorter grace to an hour")
                .isEqualTo(3600);
        assertThat(read(as(
                                        null,
                                        HttpMethod.GET,
                                        "/public/subscriptions/plans/"
                                                + plan.get("id").asString())
                                .exchange()
                                .expectStatus()
                                .isOk())
                        .get("effective_grace")
                        .asLong())
                .isEqualTo(3600);
    }

    @Test
    void refusesASignatureOfOtherTermsOrByAnotherKey() {
        MerchantIdentity merchant = newMerchant();
        Map<String, Object> signed = signed(merchant, amountPlan("Pro"), MERCHANT_KEY);

        Map<String, Object> changed = new LinkedHashMap<>(signed);
        changed.put("amount", "10000001");
        assertSignatureRefused(merchant, changed);

        Map<String, Object> changedUnsignedOnly = new LinkedHashMap<>(signed);
        changedUnsignedOnly.put("name", "Renamed before creation");
        changedUnsignedOnly.put("description", "Unsigned details may differ");
        send(merchant, HttpMethod.POST, "/subscriptions/plans/", changedUnsignedOnly)
                .expectStatus()
                .isCreated();

        assertSignatureRefused(merchant, signed(merchant, amountPlan("Pro"), OTHER_KEY));

        Map<String, Object> malformed = new LinkedHashMap<>(signed(merchant, amountPlan("Pro"), MERCHANT_KEY));
        malformed.put("merchant_sig", "0xdeadbeef");
        assertSignatureRefused(merchant, malformed);

        Map<String, Object> otherSigner = amountPlan("Other");
        otherSigner.put("merchant", OTHER_ADDRESS);
        send(merchant, HttpMethod.POST, "/subscriptions/plans/", signed(merchant, otherSigner, OTHER_KEY))
                .expectStatus()
                .isCreated();
    }

    @Test
    void aSignedNonceMakesOnePlanOnly() {
        MerchantIdentity merchant = newMerchant();
        Map<String, Object> signed = signed(merchant, amountPlan("Pro"), MERCHANT_KEY);
        send(merchant, HttpMethod.POST, "/subscriptions/plans/", signed)
                .expectStatus()
                .isCreated();

        JsonNode replay = read(send(merchant, HttpMethod.POST, "/subscriptions/plans/", signed)
                .expectStatus()
                .isEqualTo(409));
        assertThat(replay.get("code").asString()).isEqualTo("plan_nonce_used");
        assertThat(replay.get("message").asString()).contains("plan_nonce 0");

        Map<String, Object> usedNonce = amountPlan("Pro again");
        usedNonce.put("plan_nonce", 0);
        assertThat(read(send(merchant, HttpMethod.POST, "/subscriptions/plans/typed-data", usedNonce)
                                .expectStatus()
                                .isEqualTo(409))
                        .get("code")
                        .asString())
                .as("a used nonce is refused before anything is signed")
                .isEqualTo("plan_nonce_used");
    }

    @Test
    void theIdempotencyKeyReplaysTheFirstAnswer() {
        MerchantIdentity merchant = newMerchant();
        Map<String, Object> signed = signed(merchant, amountPlan("Pro"), MERCHANT_KEY);
        String body = json.writeValueAsString(signed);
        String first = as(merchant, HttpMethod.POST, "/subscriptions/plans/")
                .header("Idempotency-Key", "plan-1")
                .contentType(org.springframework.http.MediaType.APPLICATION_JSON)
                .bodyValue(body)
                .exchange()
                .expectStatus()
                .isCreated()
                .expectBody(String.class)
                .returnResult()
                .getResponseBody();
        String again = as(merchant, HttpMethod.POST, "/subscriptions/plans/")
                .header("Idempotency-Key", "plan-1")
                .contentType(org.springframework.http.MediaType.APPLICATION_JSON)
                .bodyValue(body)
                .exchange()
                .expectStatus()
                .isCreated()
                .expectBody(String.class)
                .returnResult()
                .getResponseBody();
        assertThat(again).isEqualTo(first);
    }

    @Test
    void validatesEveryField() {
        MerchantIdentity merchant = newMerchant();
        Map<String, Object> both = amountPlan("Both");
        both.put("currency", "USDC");
        both.put("value", "1");
        assertRefused(merchant, both, "token", "invalid_billing_model", "not both");

        Map<String, Object> neither = amountPlan("Neither");
        neither.remove("token");
        neither.remove("amount");
        assertRefused(merchant, neither, "token", "invalid_billing_model", "exactly one");

        Map<String, Object> halfAmount = amountPlan("Half");
        halfAmount.remove("amount");
        assertRefused(merchant, halfAmount, "amount", "validation_failed", "amount is required with token");

        Map<String, Object> halfValue = valuePlan("Half value");
        halfValue.remove("currency");
        assertRefused(merchant, halfValue, "currency", "validation_failed", "currency is required with value");

        for (String required : List.of("merchant", "destination", "name", "merchant_sig")) {
            Map<String, Object> body = withSig(amountPlan("Missing"));
            body.remove(required);
            assertRefused(merchant, body, required, "validation_failed", required + " is required");
        }

        Map<String, Object> badChecksum = withSig(amountPlan("Checksum"));
        badChecksum.put("merchant", "0xF39Fd6e51aad88F6F4ce6aB8827279cffFb92266");
        assertRefused(merchant, badChecksum, "merchant", "validation_failed", "EIP-55");

        Map<String, Object> shortAddress = withSig(amountPlan("Short"));
        shortAddress.put("destination", "0x1234");
        assertRefused(merchant, shortAddress, "destination", "validation_failed", "20-byte");

        Map<String, Object> negative = withSig(amountPlan("Negative"));
        negative.put("trial_period", -1);
        assertRefused(merchant, negative, "trial_period", "validation_failed", "must not be negative");

        Map<String, Object> fraction = withSig(amountPlan("Fraction"));
        fraction.put("max_arrears", 1.5);
        assertRefused(merchant, fraction, "max_arrears", "validation_failed", "must be an integer");

        Map<String, Object> zeroAmount = withSig(amountPlan("Zero"));
        zeroAmount.put("amount", "0");
        assertRefused(merchant, zeroAmount, "amount", "validation_failed", "greater than 0");

        Map<String, Object> numericAmount = withSig(amountPlan("Numeric"));
        numericAmount.put("amount", 10);
        assertRefused(merchant, numericAmount, "amount", "validation_failed", "string of decimal digits");

        Map<String, Object> huge = withSig(amountPlan("Huge"));
        huge.put("auto_cancel_after_missed", 4294967296L);
        assertRefused(merchant, huge, "auto_cancel_after_missed", "validation_failed", "uint32");

        Map<String, Object> periodAndInterval = withSig(amountPlan("Period"));
        periodAndInterval.put("period", 86400);
        assertRefused(merchant, periodAndInterval, "period", "validation_failed", "same setting");

        Map<String, Object> noInterval = withSig(amountPlan("No interval"));
        noInterval.remove("interval");
        assertRefused(merchant, noInterval, "interval", "validation_failed", "interval is required");

        Map<String, Object> unknown = withSig(amountPlan("Unknown"));
        unknown.put("amout", "1");
        assertRefused(merchant, unknown, "amout", "validation_failed", "Unknown field");

        Map<String, Object> wrongKind = withSig(amountPlan("Kind"));
        wrongKind.put("kind", "value");
        assertRefused(merchant, wrongKind, "kind", "validation_failed", "does not match");

        Map<String, Object> longName = withSig(amountPlan("x".repeat(101)));
        assertRefused(merchant, longName, "name", "validation_failed", "1-100 characters");

        Map<String, Object> unknownToken = withSig(amountPlan("Token"));
        unknownToken.put("token", "0x1111111111111111111111111111111111111111");
        assertRefused(merchant, unknownToken, "token", "unsupported_token", "USDC, USDT, WETH");

        Map<String, Object> tooPrecise = withSig(valuePlan("Precise"));
        tooPrecise.put("value", "0.0000001");
        assertRefused(merchant, tooPrecise, "value", "validation_failed", "decimal places");

        Map<String, Object> tooOften = withSig(amountPlan("Every minute"));
        tooOften.put("interval", 3599);
        assertRefused(merchant, tooOften, "interval", "validation_failed", "at least 3600 seconds (an hour)");

        // The contract's rule for the signed text: written fraction digits count, zeros too.
        Map<String, Object> zerosWritten = withSig(valuePlan("Zeros"));
        zerosWritten.put("value", "010.500000000");
        assertRefused(merchant, zerosWritten, "value", "validation_failed", "has (6): 9 written");

        Map<String, Object> wrongCurrencyId = withSig(amountPlan("Currency id"));
        wrongCurrencyId.put("currency_id", "41fd9b98-2cfb-5842-a4b4-9851809551cd");
        assertRefused(merchant, wrongCurrencyId, "currency_id", "invalid_currency", "USDC");

        Map<String, Object> mainnet = withSig(amountPlan("Mainnet"));
        mainnet.put("network_id", ETHEREUM_ID);
        assertRefused(merchant, mainnet, "network_id", "invalid_network", "test network");

        Map<String, Object> unknownNetwork = withSig(amountPlan("Nowhere"));
        unknownNetwork.put("network_id", UUID.randomUUID().toString());
        assertRefused(merchant, unknownNetwork, "network_id", "invalid_network", "not a known network");

        JsonNode malformed = read(send(merchant, HttpMethod.POST, "/subscriptions/plans/", "{\"name\":")
                .expectStatus()
                .isBadRequest());
        assertThat(malformed.get("message").asString()).isEqualTo("Malformed JSON body");
    }

    @Test
    void aPlanOnAnotherConfiguredNetworkUsesThatNetworksContractAndTokens() {
        MerchantIdentity merchant = newMerchant();
        Map<String, Object> body = amountPlan("Sepolia plan");
        body.put("network_id", SEPOLIA_ID);
        body.put("token", "0x1c7d4b196cb0c7b01d743fbc6116a902379c7238");
        JsonNode answer = typedData(merchant, body);
        assertThat(answer.get("typed_data").get("domain").get("chainId").asLong())
                .isEqualTo(11155111);
        assertThat(answer.get("typed_data")
                        .get("domain")
                        .get("verifyingContract")
                        .asString())
                .isEqualTo("0x2222222222222222222222222222222222222222");
        assertThat(answer.get("typed_data").get("message").get("token").asString())
                .as("addresses are signed in EIP-55 form")
                .isEqualTo("0x1c7D4B196Cb0C7B01d743Fbc6116a902379C7238");

        JsonNode plan = createPlan(merchant, body);
        assertThat(plan.get("network").get("name").asString()).isEqualTo("Sepolia");
        assertThat(plan.get("chain_id").asLong()).isEqualTo(11155111);

        MerchantIdentity live = new MerchantIdentity(merchant.merchantId(), Mode.LIVE);
        JsonNode refused = read(send(live, HttpMethod.POST, "/subscriptions/plans/typed-data", amountPlan("Live"))
                .expectStatus()
                .isBadRequest());
        assertThat(refused.get("code").asString()).isEqualTo("network_unavailable");
    }

    @Test
    void listsPagesSearchesAndFilters() {
        MerchantIdentity merchant = newMerchant();
        for (int i = 1; i <= 12; i++) {
            createPlan(merchant, amountPlan((i % 2 == 0 ? "Gold " : "Silver ") + i));
            clock.advance(Duration.ofSeconds(1));
        }

        JsonNode first =
                read(get(merchant, "/subscriptions/plans/").expectStatus().isOk());
        assertThat(first.get("total").asLong()).isEqualTo(12);
        assertThat(first.get("page").asInt()).isEqualTo(1);
        assertThat(first.get("page_size").asInt()).isEqualTo(10);
        assertThat(first.get("total_pages").asLong()).isEqualTo(2);
        assertThat(first.get("plans")).hasSize(10);
        assertThat(first.get("plans").get(0).get("name").asString()).isEqualTo("Gold 12");

        JsonNode second = read(get(merchant, "/subscriptions/plans?page=2&page_size=10")
                .expectStatus()
                .isOk());
        assertThat(second.get("plans")).hasSize(2);
        assertThat(second.get("plans").get(1).get("name").asString()).isEqualTo("Silver 1");

        JsonNode gold = read(get(merchant, "/subscriptions/plans/?search=gold")
                .expectStatus()
                .isOk());
        assertThat(gold.get("total").asLong()).isEqualTo(6);

        String deprecatedId = first.get("plans").get(0).get("id").asString();
        as(merchant, HttpMethod.DELETE, "/subscriptions/plans/" + deprecatedId)
                .exchange()
                .expectStatus()
                .isOk();
        assertThat(read(get(merchant, "/subscriptions/plans/?deprecated=true")
                                .expectStatus()
                                .isOk())
                        .get("plans")
                        .get(0)
                        .get("id")
                        .asString())
                .isEqualTo(deprecatedId);
        assertThat(read(get(merchant, "/subscriptions/plans/?deprecated=false")
                                .expectStatus()
                                .isOk())
                        .get("total")
                        .asLong())
                .isEqualTo(11);

        Instant now = clock.instant();
        assertThat(read(get(merchant, "/subscriptions/plans/?start_date=" + now.plusSeconds(60))
                                .expectStatus()
                                .isOk())
                        .get("total")
                        .asLong())
                .isZero();
        assertThat(read(get(merchant, "/subscriptions/plans/?end_date=" + now.plusSeconds(60))
                                .expectStatus()
                                .isOk())
                        .get("total")
                        .asLong())
                .isEqualTo(12);

        for (String bad : List.of(
                "page=0",
                "page_size=101",
                "deprecated=yes",
                "start_date=yesterday",
                "start_date=2026-02-01&end_date=2026-01-01")) {
            get(merchant, "/subscriptions/plans/?" + bad).expectStatus().isBadRequest();
        }
    }

    @Test
    void updatesUnsignedDetailsAndDeprecates() {
        MerchantIdentity merchant = newMerchant();
        JsonNode plan = createPlan(merchant, amountPlan("Pro"));
        String uri = "/subscriptions/plans/" + plan.get("id").asString();
        clock.advance(Duration.ofMinutes(1));

        JsonNode renamed =
                read(send(merchant, HttpMethod.PUT, uri, Map.of("name", "Pro+", "metadata_uri", "https://x.test/m"))
                        .expectStatus()
                        .isOk());
        assertThat(renamed.get("name").asString()).isEqualTo("Pro+");
        assertThat(renamed.get("metadata_uri").asString()).isEqualTo("https://x.test/m");
        assertThat(renamed.get("digest").asString())
                .isEqualTo(plan.get("digest").asString());
        assertThat(renamed.get("updated_at").asString())
                .isNotEqualTo(plan.get("updated_at").asString());

        JsonNode deleted = read(
                as(merchant, HttpMethod.DELETE, uri).exchange().expectStatus().isOk());
        assertThat(deleted.get("message").asString()).isEqualTo("Subscription plan deprecated successfully");
        assertThat(deleted.get("data").get("status").asString()).isEqualTo("deprecated");
        assertThat(deleted.get("data").get("is_deprecated").asBoolean()).isTrue();
        assertThat(deleted.get("data").get("deprecated_at").asString()).isNotBlank();

        JsonNode again = read(send(merchant, HttpMethod.PUT, uri, Map.of("status", "active"))
                .expectStatus()
                .isOk());
        assertThat(again.get("status").asString()).isEqualTo("active");
        assertThat(again.get("deprecated_at").isNull()).isTrue();

        send(merchant, HttpMethod.PUT, uri, Map.of("status", "paused"))
                .expectStatus()
                .isBadRequest();
        send(merchant, HttpMethod.PUT, uri, Map.of("digest", "0x00"))
                .expectStatus()
                .isBadRequest();
        send(merchant, HttpMethod.PUT, uri, Map.of("name", "")).expectStatus().isBadRequest();
        send(merchant, HttpMethod.PUT, uri, Map.of("name", "   "))
                .expectStatus()
                .isBadRequest();
    }

    @Test
    void aDeprecatedPlanRefusesNewSubscribersAndKeepsTheOld() {
        MerchantIdentity merchant = newMerchant();
        String planId = createPlan(merchant, amountPlan("Pro")).get("id").asString();
        createSubscriber(merchant, planId, "Ada", "ada@example.com");
        as(merchant, HttpMethod.DELETE, "/subscriptions/plans/" + planId)
                .exchange()
                .expectStatus()
                .isOk();

        JsonNode refused = read(send(merchant, HttpMethod.POST, "/subscriber/", Map.of("subscription_plan_id", planId))
                .expectStatus()
                .isBadRequest());
        assertThat(refused.get("code").asString()).isEqualTo("plan_deprecated");
        assertThat(refused.get("message").asString()).contains("deprecated");

        JsonNode plan = read(
                get(merchant, "/subscriptions/plans/" + planId).expectStatus().isOk());
        assertThat(plan.get("total_subscribers").asLong()).isEqualTo(1);
        assertThat(plan.get("subscribers").get(0).get("customer_name").asString())
                .isEqualTo("Ada");
    }

    @Test
    void countsSubscribersByState() {
        MerchantIdentity merchant = newMerchant();
        String planId = createPlan(merchant, amountPlan("Pro")).get("id").asString();
        String active = createSubscriber(merchant, planId, "A", "a@example.com")
                .get("id")
                .asString();
        String suspended = createSubscriber(merchant, planId, "B", "b@example.com")
                .get("id")
                .asString();
        createSubscriber(merchant, planId, "C", "c@example.com");
        send(merchant, HttpMethod.PUT, "/subscriber/" + active, Map.of("status", "active"))
                .expectStatus()
                .isOk();
        send(merchant, HttpMethod.PUT, "/subscriber/" + suspended, Map.of("status", "suspended"))
                .expectStatus()
                .isOk();

        JsonNode plan = read(
                get(merchant, "/subscriptions/plans/" + planId).expectStatus().isOk());
        assertThat(plan.get("total_subscribers").asLong()).isEqualTo(3);
        assertThat(plan.get("active_subscribers").asLong()).isEqualTo(1);
        assertThat(plan.get("trial_subscribers").asLong())
                .as("no enrolment, so no trial yet")
                .isZero();
        assertThat(plan.get("failed_subscribers").asLong()).isEqualTo(1);
        assertThat(plan.get("subscribers")).hasSize(3);
    }

    @Test
    void anotherMerchantOrModeSeesNothing() {
        MerchantIdentity merchant = newMerchant();
        String uri = "/subscriptions/plans/"
                + createPlan(merchant, amountPlan("Mine")).get("id").asString();
        for (MerchantIdentity stranger :
                List.of(newMerchant(), new MerchantIdentity(merchant.merchantId(), Mode.LIVE))) {
            get(stranger, uri).expectStatus().isNotFound();
            send(stranger, HttpMethod.PUT, uri, Map.of("name", "Theirs"))
                    .expectStatus()
                    .isNotFound();
            as(stranger, HttpMethod.DELETE, uri).exchange().expectStatus().isNotFound();
            assertThat(read(get(stranger, "/subscriptions/plans/")
                                    .expectStatus()
                                    .isOk())
                            .get("total")
                            .asLong())
                    .isZero();
        }
        get(merchant, "/subscriptions/plans/not-a-uuid").expectStatus().isBadRequest();
        get(merchant, "/subscriptions/plans/" + UUID.randomUUID())
                .expectStatus()
                .isNotFound();
    }

    private Map<String, Object> withSig(Map<String, Object> body) {
        body.put("merchant_sig", "0x" + "11".repeat(65));
        return body;
    }

    private void assertSignatureRefused(MerchantIdentity merchant, Map<String, Object> body) {
        JsonNode problem = read(send(merchant, HttpMethod.POST, "/subscriptions/plans/", body)
                .expectStatus()
                .isBadRequest());
        assertThat(problem.get("code").asString()).isEqualTo("invalid_merchant_signature");
        assertThat(problem.get("errors").get(0).get("field").asString()).isEqualTo("merchant_sig");
    }

    private void assertRefused(
            MerchantIdentity merchant, Map<String, Object> body, String field, String code, String messagePart) {
        JsonNode problem = read(send(merchant, HttpMethod.POST, "/subscriptions/plans/", body)
                .expectStatus()
                .isBadRequest());
        assertThat(problem.get("code").asString()).as(problem.toString()).isEqualTo(code);
        assertThat(problem.get("errors")).as(problem.toString()).anySatisfy(error -> {
            assertThat(error.get("field").asString()).isEqualTo(field);
            assertThat(error.get("message").asString()).contains(messagePart);
        });
    }
}
