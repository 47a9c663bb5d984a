package dev.cryptopay.gateway.account;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cryptopay.auth.Mode;
import dev.cryptopay.auth.keys.Ed25519KeyPairs;
import dev.cryptopay.auth.keys.RsaKeyPairs;
import dev.cryptopay.auth.keys.SigningKey;
import dev.cryptopay.gateway.support.GatewayTestBase;
import dev.cryptopay.gateway.support.MerchantKey;
import dev.cryptopay.gateway.support.SignedRequest;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** {@code /api/v1/account/keys}: the merchant lists, creates and revokes its own keys, signed like any call. */
class AccountKeysTest extends GatewayTestBase {

    private static final SecureRandom RANDOM = new SecureRandom();

    @Test
    void listsTheModesKeysNewestFirstWithoutSecretsAndMarksTheCallingKey() {
        MerchantKey first = admin.newMerchantKey();
        MerchantKey second = admin.newKey(first.merchantId(), Mode.TEST, null);
        admin.newKey(first.merchantId(), Mode.LIVE, null);
        String publishable = admin.newPublishableKey(first.merchantId(), Mode.TEST);
        admin.newPublishableKey(first.merchantId(), Mode.LIVE);

        byte[] raw = SignedRequest.of("GET", "/account/keys")
                .send(client, baseUrl(), second)
                .expectStatus()
                .isOk()
                .expectHeader()
                .valueEquals("X-RateLimit-Limit", "60")
                .expectBody()
                .returnResult()
                .getResponseBody();
        JsonNode page = json(raw);

        assertThat(page.get("total").asLong()).isEqualTo(2);
        assertThat(page.get("page").asInt()).isEqualTo(1);
        assertThat(page.get("page_size").asInt()).isEqualTo(20);
        assertThat(page.get("total_pages").asInt()).isEqualTo(1);
        JsonNode keys = page.get("keys");
        assertThat(keys).hasSize(2);
        assertThat(keys.get(0).get("api_key_prefix").asString()).isEqualTo(second.prefix());
        assertThat(keys.get(0).get("current").asBoolean()).isTrue();
        assertThat(keys.get(1).get("api_key_prefix").asString()).isEqualTo(first.prefix());
        assertThat(keys.get(1).get("current").asBoolean()).isFalse();
        assertThat(keys.get(1).get("mode").asString()).isEqualTo("test");
        assertThat(keys.get(1).get("algorithm").asString()).isEqualTo("ed25519");
        assertThat(keys.get(1).get("status").asString()).isEqualTo("active");
        assertThat(keys.get(1).has("last_used_at")).isTrue();
        assertThat(page.get("publishable_keys")).hasSize(1);
        assertThat(page.at("/publishable_keys/0/publishable_key").asString()).isEqualTo(publishable);
        String text = new String(raw, java.nio.charset.StandardCharsets.UTF_8);
        assertThat(text)
                .doesNotContain(first.apiKey())
                .doesNotContain(second.apiKey())
                .doesNotContain("PRIVATE")
                .doesNotContain("public_key");
    }

    @Test
    void pagesThroughTheKeys() {
        MerchantKey key = admin.newMerchantKey();
        for (int i = 0; i < 4; i++) {
            admin.newKey(key.merchantId(), Mode.TEST, null);
        }
        JsonNode second = json(SignedRequest.of("GET", "/account/keys?page=2&page_size=2")
                .send(client, baseUrl(), key)
                .expectStatus()
                .isOk());
        assertThat(second.get("total").asLong()).isEqualTo(5);
        assertThat(second.get("total_pages").asInt()).isEqualTo(3);
        assertThat(second.get("keys")).hasSize(2);
        JsonNode last = json(SignedRequest.of("GET", "/account/keys?page=3&page_size=2")
                .send(client, baseUrl(), key)
                .expectStatus()
                .isOk());
        assertThat(last.get("keys")).hasSize(1);
        assertThat(last.at("/keys/0/api_key_prefix").asString()).isEqualTo(key.prefix());

        JsonNode refused = json(SignedRequest.of("GET", "/account/keys?page=0&page_size=101")
                .send(client, baseUrl(), key)
                .expectStatus()
                .isBadRequest());
        assertThat(refused.get("code").asString()).isEqualTo("validation_failed");
        assertThat(refused.get("errors").findValuesAsString("field")).containsExactly("page", "page_size");
    }

    @Test
    void createsAKeyForTheMerchantsOwnPublicKeyThatSignsAtOnce() {
        MerchantKey key = admin.newMerchantKey();
        SigningKey own = SigningKey.parse(Ed25519KeyPairs.generate(RANDOM).privateKeyPem());

        JsonNode created = json(SignedRequest.of("POST", "/account/keys")
                .body(JSON.writeValueAsString(
                        Map.of("public_key", own.verificationKey().toPem())))
                .send(client, baseUrl(), key)
                .expectStatus()
                .isCreated());

        assertThat(created.get("api_key").asString()).matches("mk_test_[A-Z2-7]{32}");
        assertThat(created.get("mode").asString()).isEqualTo("test");
        assertThat(created.get("status").asString()).isEqualTo("active");
        assertThat(created.get("merchant_id").asString())
                .isEqualTo(key.merchantId().toString());
        assertThat(created.has("private_key"))
                .as("the merchant kept its private key")
                .isFalse();
        MerchantKey fresh =
                new MerchantKey(key.merchantId(), created.get("api_key").asString(), Mode.TEST, own);
        JsonNode account = json(SignedRequest.of("GET", "/account")
                .send(client, baseUrl(), fresh)
                .expectStatus()
                .isOk());
        assertThat(account.get("api_key_prefix").asString()).isEqualTo(fresh.prefix());
    }

    @Test
    void generatesAnEd25519PairWhenNoPublicKeyIsGiven() {
        MerchantKey key = admin.newMerchantKey();
        JsonNode created = json(SignedRequest.of("POST", "/account/keys")
                .send(client, baseUrl(), key)
                .expectStatus()
                .isCreated());
        assertThat(created.get("algorithm").asString()).isEqualTo("ed25519");
        assertThat(created.get("private_key_pem").asString()).startsWith("-----BEGIN PRIVATE KEY-----");
        MerchantKey fresh = new MerchantKey(
                key.merchantId(),
                created.get("api_key").asString(),
                Mode.TEST,
                SigningKey.parse(created.get("private_key").asString()));
        SignedRequest.of("GET", "/account/keys")
                .send(client, baseUrl(), fresh)
                .expectStatus()
                .isOk();
    }

    @Test
    void refusesBadBodiesNamingTheField() {
        MerchantKey key = admin.newMerchantKey();
        Map<String, Object> cases = new HashMap<>();
        cases.put("{\"public_key\":\"not a key\"}", "public_key");
        cases.put("{\"mode\":\"prod\"}", "mode");
        cases.put("{\"algorithm\":\"dsa\"}", "algorithm");
        cases.put("{\"algorithm\":\"rsa-pss-sha256\"}", "public_key");
        cases.put("{\"color\":\"blue\"}", "color");
        cases.put("{\"public_key\":42}", "public_key");
        cases.forEach((body, field) -> {
            JsonNode problem = json(SignedRequest.of("POST", "/account/keys")
                    .body((String) body)
                    .send(client, baseUrl(), key)
                    .expectStatus()
                    .isBadRequest());
            assertThat(problem.get("errors").findValuesAsString("field"))
                    .as(body)
                    .contains((String) field);
        });
        JsonNode malformed = json(SignedRequest.of("POST", "/account/keys")
                .body("[1,2]")
                .send(client, baseUrl(), key)
                .expectStatus()
                .isBadRequest());
        assertThat(malformed.get("code").asString()).isEqualTo("invalid_request");
    }

    @Test
    void acceptsAnRsaPublicKey() {
        MerchantKey key = admin.newMerchantKey();
        SigningKey rsa = SigningKey.parse(RsaKeyPairs.generate(RANDOM, 2048).privateKeyPem());
        JsonNode created = json(SignedRequest.of("POST", "/account/keys")
                .body(JSON.writeValueAsString(Map.of(
                        "algorithm",
                        "rsa-pss-sha256",
                        "public_key",
                        rsa.verificationKey().toPem())))
                .send(client, baseUrl(), key)
                .expectStatus()
                .isCreated());
        assertThat(created.get("algorithm").asString()).isEqualTo("rsa-pss-sha256");
    }

    @Test
    void aLiveKeyFromATestKeyNeedsApprovedProductionAccess() {
        MerchantKey key = admin.newMerchantKey();
        JsonNode refused = json(SignedRequest.of("POST", "/account/keys")
                .body("{\"mode\":\"live\"}")
                .timestamp(now())
                .send(client, baseUrl(), key)
                .expectStatus()
                .isForbidden());
        assertThat(refused.get("code").asString()).isEqualTo("production_access_required");

        JsonNode request = json(SignedRequest.of("POST", "/account/production_access")
                .body("{\"use_case\":\"Coffee beans\"}")
                .send(client, baseUrl(), key)
                .expectStatus()
                .isCreated());
        SignedRequest.of("POST", "/account/keys")
                .body("{\"mode\":\"live\"}")
                .timestamp(now())
                .send(client, baseUrl(), key)
                .expectStatus()
                .isForbidden();
        admin.post("/admin/production_access/" + request.get("id").asString() + "/approve", Map.of())
                .expectStatus()
                .isOk();

        JsonNode live = json(SignedRequest.of("POST", "/account/keys")
                .body("{\"mode\":\"live\"}")
                .timestamp(now())
                .send(client, baseUrl(), key)
                .expectStatus()
                .isCreated());
        assertThat(live.get("api_key").asString()).startsWith("mk_live_");
        MerchantKey liveKey = new MerchantKey(
                key.merchantId(),
                live.get("api_key").asString(),
                Mode.LIVE,
                SigningKey.parse(live.get("private_key").asString()));
        JsonNode account = json(SignedRequest.of("GET", "/account")
                .send(client, baseUrl(), liveKey)
                .expectStatus()
                .isOk());
        assertThat(account.get("mode").asString()).isEqualTo("live");
        // A live key lists live keys (and the live publishable key the approval issued), and may make a test key.
        JsonNode liveKeys = json(SignedRequest.of("GET", "/account/keys")
                .send(client, baseUrl(), liveKey)
                .expectStatus()
                .isOk());
        assertThat(liveKeys.get("keys").findValuesAsString("mode")).containsExactly("live");
        assertThat(liveKeys.at("/publishable_keys/0/publishable_key").asString())
                .startsWith("pk_live_");
        SignedRequest.of("POST", "/account/keys")
                .body("{\"mode\":\"test\"}")
                .send(client, baseUrl(), liveKey)
                .expectStatus()
                .isCreated();
    }

    @Test
    void revokesAnOwnKeyWhichIsRefusedAtOnce() {
        MerchantKey key = admin.newMerchantKey();
        MerchantKey other = admin.newKey(key.merchantId(), Mode.TEST, null);
        SignedRequest.of("GET", "/account")
                .send(client, baseUrl(), other)
                .expectStatus()
                .isOk();
        String otherId = idOf(key, other.prefix());

        SignedRequest.of("DELETE", "/account/keys/" + otherId)
                .send(client, baseUrl(), key)
                .expectStatus()
                .isNoContent();
        // This instance dropped its cached lookup: refused now, not one cache lifetime later.
        SignedRequest.of("GET", "/account")
                .send(client, baseUrl(), other)
                .expectStatus()
                .isUnauthorized()
                .expectBody()
                .jsonPath("$.code")
                .isEqualTo("api_key_revoked");
        // Revoking it again is answered the same.
        SignedRequest.of("DELETE", "/account/keys/" + otherId)
                .timestamp(now())
                .send(client, baseUrl(), key)
                .expectStatus()
                .isNoContent();
        JsonNode listed = json(SignedRequest.of("GET", "/account/keys")
                .send(client, baseUrl(), key)
                .expectStatus()
                .isOk());
        JsonNode revoked = listed.get("keys").values().stream()
                .filter(k -> k.get("id").asString().equals(otherId))
                .findFirst()
                .orElseThrow();
        assertThat(revoked.get("status").asString()).isEqualTo("revoked");
        assertThat(revoked.get("revoked_at").asString()).isNotBlank();
    }

    @Test
    void neverRevokesTheKeySigningTheRequestNorAnotherMerchantsKey() {
        MerchantKey key = admin.newMerchantKey();
        String ownId = idOf(key, key.prefix());
        JsonNode current = json(SignedRequest.of("DELETE", "/account/keys/" + ownId)
                .send(client, baseUrl(), key)
                .expectStatus()
                .isEqualTo(409));
        assertThat(current.get("code").asString()).isEqualTo("current_key");

        MerchantKey stranger = admin.newMerchantKey();
        String strangersId = idOf(stranger, stranger.prefix());
        for (String id : List.of(strangersId, UUID.randomUUID().toString(), "not-a-uuid")) {
            SignedRequest.of("DELETE", "/account/keys/" + id)
                    .send(client, baseUrl(), key)
                    .expectStatus()
                    .isNotFound()
                    .expectBody()
                    .jsonPath("$.code")
                    .isEqualTo("not_found");
        }
        SignedRequest.of("GET", "/account")
                .send(client, baseUrl(), stranger)
                .expectStatus()
                .isOk();
        SignedRequest.of("GET", "/account")
                .send(client, baseUrl(), key)
                .expectStatus()
                .isOk();
    }

    @Test
    void revokesAnOwnPublishableKeyButNotOneOfAnotherMode() {
        MerchantKey key = admin.newMerchantKey();
        admin.newPublishableKey(key.merchantId(), Mode.TEST);
        admin.newPublishableKey(key.merchantId(), Mode.LIVE);
        JsonNode live = admin.keys(key.merchantId()).get("publishable_keys").values().stream()
                .filter(p -> p.get("mode").asString().equals("live"))
                .findFirst()
                .orElseThrow();
        SignedRequest.of("DELETE", "/account/keys/" + live.get("id").asString())
                .send(client, baseUrl(), key)
                .expectStatus()
                .isNotFound();

        JsonNode test = json(SignedRequest.of("GET", "/account/keys")
                        .send(client, baseUrl(), key)
                        .expectStatus()
                        .isOk())
                .at("/publishable_keys/0");
        SignedRequest.of("DELETE", "/account/keys/" + test.get("id").asString())
                .send(client, baseUrl(), key)
                .expectStatus()
                .isNoContent();
        assertThat(json(SignedRequest.of("GET", "/account/keys")
                                .send(client, baseUrl(), key)
                                .expectStatus()
                                .isOk())
                        .at("/publishable_keys/0/status")
                        .asString())
                .isEqualTo("revoked");
    }

    @Test
    void needsASignatureAndRefusesReplaysAndOtherMethods() {
        client.get()
                .uri(baseUrl() + "/api/v1/account/keys")
                .exchange()
                .expectStatus()
                .isUnauthorized()
                .expectBody()
                .jsonPath("$.code")
                .isEqualTo("missing_api_key");
        MerchantKey key = admin.newMerchantKey();
        SignedRequest create = SignedRequest.of("POST", "/account/keys").body("{}");
        create.send(client, baseUrl(), key).expectStatus().isCreated();
        create.send(client, baseUrl(), key)
                .expectStatus()
                .isUnauthorized()
                .expectBody()
                .jsonPath("$.code")
                .isEqualTo("replayed_request");
        SignedRequest.of("PUT", "/account/keys")
                .body("{}")
                .send(client, baseUrl(), key)
                .expectStatus()
                .isNotFound();
        SignedRequest.of("DELETE", "/account/keys")
                .send(client, baseUrl(), key)
                .expectStatus()
                .isNotFound();
    }

    /** A timestamp to the microsecond: the same write signed again within a second is not a replay. */
    private static String now() {
        return Instant.now().toString();
    }

    /** The id of the merchant's key with this prefix, as the listing shows it. */
    private String idOf(MerchantKey caller, String prefix) {
        JsonNode listed = json(SignedRequest.of("GET", "/account/keys?page_size=100")
                .send(client, baseUrl(), caller)
                .expectStatus()
                .isOk());
        return listed.get("keys").values().stream()
                .filter(k -> k.get("api_key_prefix").asString().equals(prefix))
                .map(k -> k.get("id").asString())
                .findFirst()
                .orElseThrow();
    }
}
