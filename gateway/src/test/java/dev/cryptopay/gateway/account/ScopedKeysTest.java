package dev.cryptopay.gateway.account;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cryptopay.auth.Mode;
import dev.cryptopay.auth.apikey.ApiKey;
import dev.cryptopay.auth.keys.Ed25519KeyPairs;
import dev.cryptopay.auth.keys.GeneratedKeyPair;
import dev.cryptopay.auth.keys.SigningKey;
import dev.cryptopay.gateway.keys.ApiKeyHash;
import dev.cryptopay.gateway.support.GatewayTestBase;
import dev.cryptopay.gateway.support.MerchantKey;
import dev.cryptopay.gateway.support.SignedRequest;
import java.security.SecureRandom;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.test.web.reactive.server.WebTestClient;
import tools.jackson.databind.JsonNode;

/**
 * Scoped API keys: a key does only what it was created with (read, payment_links, subscriptions, webhooks, account),
 * a key never makes or revokes a stronger one, and a restricted test key never reaches live money. Every refusal is a
 * 403 {@code missing_scope} that names the scope.
 */
class ScopedKeysTest extends GatewayTestBase {

    private static final SecureRandom RANDOM = new SecureRandom();
    private static final List<String> ALL = List.of("read", "payment_links", "subscriptions", "webhooks", "account");

    @Autowired
    private DatabaseClient database;

    @Test
    void keysMadeBeforeScopesExistedKeepEveryScope() {
        MerchantKey operatorMade = admin.newMerchantKey();
        // A row written as the gateway wrote them before V4: no scopes column in the insert.
        GeneratedKeyPair pair = Ed25519KeyPairs.generate(RANDOM);
        ApiKey apiKey = ApiKey.generate(Mode.TEST, RANDOM);
        database.sql(
                        "INSERT INTO api_key (id, key_sha256, display_prefix, merchant_id, mode, algorithm, public_key_pem,"
                                + " status, created_at) VALUES (:id, :hash, :prefix, :merchant, 'test', 'ed25519', :pem,"
                                + " 'active', :now)")
                .bind("id", UUID.randomUUID())
                .bind("hash", ApiKeyHash.of(apiKey.value()))
                .bind("prefix", apiKey.displayPrefix())
                .bind("merchant", operatorMade.merchantId())
                .bind("pem", pair.publicKeyPem())
                .bind("now", Instant.now().atOffset(ZoneOffset.UTC))
                .fetch()
                .rowsUpdated()
                .block();
        MerchantKey old = new MerchantKey(
                operatorMade.merchantId(), apiKey.value(), Mode.TEST, SigningKey.parse(pair.privateKeyPem()));

        assertThat(strings(account(old).get("scopes"))).containsExactlyElementsOf(ALL);
        assertThat(strings(account(operatorMade).get("scopes"))).containsExactlyElementsOf(ALL);
        send("POST", "/payment_links", "{}", old).expectStatus().isOk();
        send("PUT", "/payment_links/receiving_key", "{}", old).expectStatus().isOk();
        send("POST", "/account/keys", "{\"scopes\":[\"read\"]}", old)
                .expectStatus()
                .isCreated();
    }

    @Test
    void aReadOnlyKeyReadsEverythingAndChangesNothing() {
        MerchantKey full = admin.newMerchantKey();
        MerchantKey reader = create(full, Map.of("scopes", List.of("read")));
        assertThat(strings(account(reader).get("scopes"))).containsExactly("read");

        for (String path : List.of(
                "/payment_links",
                "/subscriptions/plan",
                "/webhook-endpoints",
                "/account/keys",
                "/notifications/emails")) {
            send("GET", path, null, reader).expectStatus().isOk();
        }
        assertMissing(send("POST", "/payment_links", "{}", reader), "payment_links");
        assertMissing(send("POST", "/subscriptions/plan", "{}", reader), "subscriptions");
        assertMissing(send("DELETE", "/webhook-endpoints/" + UUID.randomUUID(), null, reader), "webhooks");
        assertMissing(send("PUT", "/payment_links/receiving_key", "{}", reader), "account");
        assertMissing(send("POST", "/account/keys", "{}", reader), "account");
        assertMissing(send("POST", "/account/production_access", "{}", reader), "account");
        assertMissing(send("PUT", "/notifications/settings", "{}", reader), "account");
    }

    @Test
    void aResourceKeyReachesOnlyItsResourceAndNeverTheReceivingKey() {
        MerchantKey full = admin.newMerchantKey();
        MerchantKey links = create(full, Map.of("scopes", List.of("payment_links")));

        send("POST", "/payment_links", "{}", links).expectStatus().isOk();
        send("GET", "/payment_links/" + UUID.randomUUID() + "/transfers", null, links)
                .expectStatus()
                .isOk();
        send("GET", "/payment_links/receiving_key", null, links).expectStatus().isOk();
        assertMissing(send("PUT", "/payment_links/receiving_key", "{}", links), "account");
        assertMissing(send("GET", "/subscriptions/plan", null, links), "subscriptions");
        assertMissing(send("GET", "/events", null, links), "webhooks");
        assertMissing(send("GET", "/account/keys", null, links), "account");
        assertMissing(send("PUT", "/notifications/settings", "{}", links), "account");
        // Every key may ask who it is and what it may do.
        assertThat(strings(account(links).get("scopes"))).containsExactly("payment_links");
    }

    @Test
    void aKeyGivesOnlyScopesItHasAndNewKeysInheritTheCallersByDefault() {
        MerchantKey full = admin.newMerchantKey();
        MerchantKey manager = create(full, Map.of("scopes", List.of("account", "payment_links")));

        assertMissing(
                send("POST", "/account/keys", "{\"scopes\":[\"payment_links\",\"webhooks\"]}", manager), "webhooks");
        JsonNode inherited =
                json(send("POST", "/account/keys", "{}", manager).expectStatus().isCreated());
        assertThat(strings(inherited.get("scopes"))).containsExactly("payment_links", "account");
        JsonNode narrower = json(send("POST", "/account/keys", "{\"scopes\":[\"read\",\"read\"]}", full)
                .expectStatus()
                .isCreated());
        assertThat(strings(narrower.get("scopes"))).containsExactly("read");

        JsonNode listed =
                json(send("GET", "/account/keys", null, full).expectStatus().isOk());
        JsonNode managerRow = row(listed, manager.prefix());
        assertThat(strings(managerRow.get("scopes"))).containsExactly("payment_links", "account");
    }

    @Test
    void aRestrictedKeyCannotRevokeAStrongerOne() {
        MerchantKey full = admin.newMerchantKey();
        MerchantKey manager = create(full, Map.of("scopes", List.of("account", "payment_links")));
        MerchantKey links = create(full, Map.of("scopes", List.of("payment_links")));
        JsonNode keys =
                json(send("GET", "/account/keys", null, full).expectStatus().isOk());

        assertMissing(
                send(
                        "DELETE",
                        "/account/keys/" + row(keys, full.prefix()).get("id").asString(),
                        null,
                        manager),
                "read");
        assertMissing(
                send(
                        "DELETE",
                        "/account/keys/" + row(keys, manager.prefix()).get("id").asString(),
                        null,
                        links),
                "account");
        send("DELETE", "/account/keys/" + row(keys, links.prefix()).get("id").asString(), null, manager)
                .expectStatus()
                .isNoContent();
        send("GET", "/account", null, full).expectStatus().isOk();
    }

    @Test
    void aRestrictedTestKeyNeverMintsALiveKeyEvenOnceProductionIsApproved() {
        MerchantKey full = admin.newMerchantKey();
        MerchantKey ci = create(full, Map.of("scopes", List.of("payment_links", "subscriptions", "webhooks")));
        approveProduction(full);

        assertMissing(send("POST", "/account/keys", "{\"mode\":\"live\"}", ci), "account");
        JsonNode live = json(send("POST", "/account/keys", "{\"mode\":\"live\",\"scopes\":[\"read\"]}", full)
                .expectStatus()
                .isCreated());
        assertThat(live.get("mode").asString()).isEqualTo("live");
        assertThat(strings(live.get("scopes"))).containsExactly("read");
    }

    @Test
    void malformedScopesAreA400() {
        MerchantKey full = admin.newMerchantKey();
        for (String body : List.of(
                "{\"scopes\":[]}",
                "{\"scopes\":[\"admin\"]}",
                "{\"scopes\":\"read\"}",
                "{\"scopes\":[1]}",
                "{\"scopes\":[\"read\",null]}")) {
            JsonNode refused = json(
                    send("POST", "/account/keys", body, full).expectStatus().isBadRequest());
            assertThat(refused.get("code").asString()).as(body).isEqualTo("invalid_scopes");
            assertThat(refused.get("message").asString())
                    .as(body)
                    .contains("read, payment_links, subscriptions, webhooks, account");
        }
    }

    // ---- helpers ---------------------------------------------------------------------------------------------------

    private WebTestClient.ResponseSpec send(String method, String path, String body, MerchantKey key) {
        SignedRequest request = SignedRequest.of(method, path);
        if (body != null) {
            request = request.body(body);
        }
        return request.timestamp(Instant.now().toString()).send(client, baseUrl(), key);
    }

    private static void assertMissing(WebTestClient.ResponseSpec response, String scope) {
        JsonNode error = json(response.expectStatus().isForbidden());
        assertThat(error.get("code").asString()).isEqualTo("missing_scope");
        assertThat(error.get("message").asString()).contains("the " + scope + " scope");
    }

    /** A new test key of the merchant made by {@code by} with this body; the gateway generates its pair. */
    private MerchantKey create(MerchantKey by, Map<String, Object> body) {
        JsonNode created = json(send("POST", "/account/keys", JSON.writeValueAsString(body), by)
                .expectStatus()
                .isCreated());
        return MerchantKey.created(by.merchantId(), created);
    }

    private JsonNode account(MerchantKey key) {
        return json(send("GET", "/account", null, key).expectStatus().isOk());
    }

    private void approveProduction(MerchantKey key) {
        JsonNode asked = json(send(
                        "POST",
                        "/account/production_access",
                        JSON.writeValueAsString(
                                Map.of("company", "Acme", "website", "https://acme.example", "use_case", "Coffee")),
                        key)
                .expectStatus()
                .isCreated());
        admin.post("/admin/production_access/" + asked.get("id").asString() + "/approve", Map.of())
                .expectStatus()
                .isOk();
    }

    private static JsonNode row(JsonNode page, String prefix) {
        for (JsonNode key : page.get("keys")) {
            if (key.get("api_key_prefix").asString().equals(prefix)) {
                return key;
            }
        }
        throw new AssertionError("no key " + prefix + " in " + page);
    }

    private static List<String> strings(JsonNode array) {
        return java.util.stream.StreamSupport.stream(array.spliterator(), false)
                .map(JsonNode::asString)
                .toList();
    }
}
