package dev.cryptopay.gateway.production;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cryptopay.gateway.support.GatewayTestBase;
import dev.cryptopay.gateway.support.MerchantKey;
import dev.cryptopay.gateway.support.SignedRequest;
import dev.cryptopay.gateway.support.TestEnvironment;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpHeaders;
import org.springframework.test.web.reactive.server.WebTestClient;
import org.springframework.web.reactive.function.client.WebClient;
import tools.jackson.databind.JsonNode;

/**
 * A merchant asks for production access ({@code /api/v1/account/production_access}), the operator decides on the
 * admin port; one open request per merchant, however often (or concurrently) it asks.
 */
class ProductionAccessTest extends GatewayTestBase {

    @Test
    void aMerchantAsksOnceAndSeesTheOperatorsDecision() {
        MerchantKey key = admin.newMerchantKey();
        JsonNode none = status(key);
        assertThat(none.get("status").asString()).isEqualTo("none");
        assertThat(none.get("id").isNull()).isTrue();

        JsonNode asked = json(ask(
                        key,
                        Map.of(
                                "company",
                                " Acme Coffee ",
                                "website",
                                "https://acme.example",
                                "use_case",
                                "Coffee beans"))
                .expectStatus()
                .isCreated());
        assertThat(asked.get("status").asString()).isEqualTo("pending");
        assertThat(asked.get("company").asString()).isEqualTo("Acme Coffee");
        assertThat(asked.get("website").asString()).isEqualTo("https://acme.example");
        assertThat(asked.get("use_case").asString()).isEqualTo("Coffee beans");
        assertThat(asked.get("decided_at").isNull()).isTrue();

        // Asking again answers the open request, whatever it says.
        JsonNode again = json(
                ask(key, Map.of("use_case", "Something else")).expectStatus().isOk());
        assertThat(again.get("id").asString()).isEqualTo(asked.get("id").asString());
        assertThat(again.get("use_case").asString()).isEqualTo("Coffee beans");
        assertThat(status(key).get("status").asString()).isEqualTo("pending");

        JsonNode pending = adminList("pending");
        JsonNode listed = find(pending, asked.get("id").asString());
        assertThat(listed.get("merchant_id").asString())
                .isEqualTo(key.merchantId().toString());
        assertThat(listed.get("merchant_name").asString()).startsWith("Merchant");
        assertThat(listed.get("merchant_email").asString()).contains("@");

        JsonNode approved =
                json(admin.post("/admin/production_access/" + asked.get("id").asString() + "/approve", Map.of())
                        .expectStatus()
                        .isOk());
        assertThat(approved.get("status").asString()).isEqualTo("approved");
        assertThat(approved.get("decided_at").asString()).isNotBlank();
        assertThat(status(key).get("status").asString()).isEqualTo("approved");
        assertThat(find(adminList("approved"), asked.get("id").asString())).isNotNull();
        // Approving again changes nothing; asking after approval answers the approved request.
        admin.post("/admin/production_access/" + asked.get("id").asString() + "/approve", Map.of())
                .expectStatus()
                .isOk();
        assertThat(json(ask(key, Map.of("use_case", "More")).expectStatus().isOk())
                        .get("status")
                        .asString())
                .isEqualTo("approved");
        // The approval gave the merchant one live publishable key, and a second approval no other.
        JsonNode keys = admin.keys(key.merchantId());
        assertThat(keys.get("publishable_keys").findValuesAsString("mode")).containsExactly("live");
    }

    @Test
    void aRejectedMerchantSeesTheReasonAndMayAskAgain() {
        MerchantKey key = admin.newMerchantKey();
        String first = json(ask(key, Map.of("use_case", "Things"))
                        .expectStatus()
                        .isCreated())
                .get("id")
                .asString();
        JsonNode rejected = json(
                admin.post("/admin/production_access/" + first + "/reject", Map.of("reason", "Tell us what you sell"))
                        .expectStatus()
                        .isOk());
        assertThat(rejected.get("status").asString()).isEqualTo("rejected");
        JsonNode seen = status(key);
        assertThat(seen.get("status").asString()).isEqualTo("rejected");
        assertThat(seen.get("reason").asString()).isEqualTo("Tell us what you sell");
        // A rejected request cannot be approved afterwards.
        assertThat(json(admin.post("/admin/production_access/" + first + "/approve", Map.of())
                                .expectStatus()
                                .isEqualTo(409))
                        .get("code")
                        .asString())
                .isEqualTo("already_decided");

        JsonNode second = json(ask(key, Map.of("use_case", "Roasted coffee beans"))
                .expectStatus()
                .isCreated());
        assertThat(second.get("id").asString()).isNotEqualTo(first);
        assertThat(second.get("status").asString()).isEqualTo("pending");
        assertThat(second.get("reason").isNull()).isTrue();
    }

    @Test
    void concurrentRequestsMakeOne() {
        MerchantKey key = admin.newMerchantKey();
        WebClient web = WebClient.create();
        List<CompletableFuture<JsonNode>> answers = IntStream.range(0, 8)
                .mapToObj(i -> SignedRequest.of("POST", "/account/production_access")
                        .body("{\"use_case\":\"Beans " + i + "\"}")
                        .prepare(web, baseUrl(), key)
                        .retrieve()
                        .bodyToMono(byte[].class)
                        .map(body -> json(body))
                        .toFuture())
                .toList();
        List<String> ids = answers.stream()
                .map(CompletableFuture::join)
                .map(answer -> answer.get("id").asString())
                .distinct()
                .toList();
        assertThat(ids).hasSize(1);
    }

    @Test
    void refusesBadRequestsNamingTheFields() {
        MerchantKey key = admin.newMerchantKey();
        JsonNode missing =
                json(ask(key, Map.of("company", "Acme")).expectStatus().isBadRequest());
        assertThat(missing.get("errors").findValuesAsString("field")).containsExactly("use_case");
        JsonNode several = json(ask(key, Map.of("use_case", " ", "website", "ftp://acme", "extra", 1))
                .expectStatus()
                .isBadRequest());
        assertThat(several.get("errors").findValuesAsString("field"))
                .containsExactlyInAnyOrder("extra", "website", "use_case");
        JsonNode tooLong = json(
                ask(key, Map.of("use_case", "x".repeat(2001))).expectStatus().isBadRequest());
        assertThat(tooLong.get("errors").findValuesAsString("field")).containsExactly("use_case");
        assertThat(status(key).get("status").asString()).isEqualTo("none");
    }

    @Test
    void theAdminRoutesNeedTheTokenAndKnownRequests() {
        admin.client()
                .get()
                .uri("/admin/production_access")
                .exchange()
                .expectStatus()
                .isUnauthorized();
        admin.post("/admin/production_access/" + UUID.randomUUID() + "/approve", Map.of())
                .expectStatus()
                .isNotFound();
        admin.post("/admin/production_access/nope/reject", Map.of())
                .expectStatus()
                .isNotFound();
        admin.client()
                .get()
                .uri("/admin/production_access?status=maybe")
                .header(HttpHeaders.AUTHORIZATION, "Bearer " + TestEnvironment.ADMIN_TOKEN)
                .exchange()
                .expectStatus()
                .isBadRequest();
        // The merchant port has no admin routes.
        client.get().uri("/admin/production_access").exchange().expectStatus().isNotFound();
    }

    private WebTestClient.ResponseSpec ask(MerchantKey key, Map<String, Object> body) {
        return SignedRequest.of("POST", "/account/production_access")
                .body(JSON.writeValueAsString(body))
                .timestamp(Instant.now().toString())
                .send(client, baseUrl(), key);
    }

    private JsonNode status(MerchantKey key) {
        return json(SignedRequest.of("GET", "/account/production_access")
                .send(client, baseUrl(), key)
                .expectStatus()
                .isOk());
    }

    private JsonNode adminList(String status) {
        return JSON.readTree(admin.client()
                .get()
                .uri("/admin/production_access?status=" + status + "&page_size=100")
                .header(HttpHeaders.AUTHORIZATION, "Bearer " + TestEnvironment.ADMIN_TOKEN)
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody()
                .returnResult()
                .getResponseBody());
    }

    private static JsonNode find(JsonNode list, String id) {
        return list.get("requests").values().stream()
                .filter(request -> request.get("id").asString().equals(id))
                .findFirst()
                .orElse(null);
    }
}
