package dev.cryptopay.gateway.auth;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cryptopay.auth.Mode;
import dev.cryptopay.auth.apikey.ApiKey;
import dev.cryptopay.auth.keys.RsaKeyPairs;
import dev.cryptopay.auth.keys.SigningKey;
import dev.cryptopay.gateway.support.GatewayTestBase;
import dev.cryptopay.gateway.support.MerchantKey;
import dev.cryptopay.gateway.support.SignedRequest;
import io.micrometer.core.instrument.MeterRegistry;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.MediaType;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.test.web.reactive.server.WebTestClient;
import tools.jackson.databind.JsonNode;

class SignatureAuthenticationTest extends GatewayTestBase {

    @Autowired
    DatabaseClient database;

    @Autowired
    MeterRegistry meters;

    @Test
    void forwardsRequestSignedWithEd25519Key() {
        MerchantKey key = admin.newMerchantKey();
        JsonNode echo = json(SignedRequest.of("GET", "/payment_links")
                .send(client, baseUrl(), key)
                .expectStatus()
                .isOk());
        assertThat(echo.get("service").stringValue()).isEqualTo("payment-links-service");
        assertThat(echo.get("path").stringValue()).isEqualTo("/payment_links");
        assertThat(echo.at("/headers/x-merchant-id/0").stringValue())
                .isEqualTo(key.merchantId().toString());
    }

    @Test
    void forwardsRequestSignedWithRsaPssKey() {
        SigningKey rsa =
                SigningKey.parse(RsaKeyPairs.generate(new SecureRandom(), 2048).privateKeyPem());
        UUID merchantId =
                UUID.fromString(admin.createMerchant("RsaShop").get("id").stringValue());
        MerchantKey key = admin.newKey(merchantId, Mode.LIVE, rsa);
        JsonNode echo = json(SignedRequest.of("POST", "/payment_links")
                .body("{\"amount\":\"10.00\"}")
                .send(client, baseUrl(), key)
                .expectStatus()
                .isOk());
        assertThat(echo.get("method").stringValue()).isEqualTo("POST");
        assertThat(echo.at("/headers/x-merchant-mode/0").stringValue()).isEqualTo("live");
    }

    @Test
    void rejectsMissingApiKeyHeader() {
        MerchantKey key = admin.newMerchantKey();
        expectUnauthorized(
                SignedRequest.of("GET", "/payment_links").withoutApiKey().send(client, baseUrl(), key),
                "missing_api_key",
                "Missing X-API-Key header");
    }

    @Test
    void rejectsMissingSignatureHeader() {
        MerchantKey key = admin.newMerchantKey();
        expectUnauthorized(
                SignedRequest.of("GET", "/payment_links").withoutSignature().send(client, baseUrl(), key),
                "missing_signature",
                "Missing X-API-Signature header");
    }

    @Test
    void rejectsMissingTimestampHeader() {
        MerchantKey key = admin.newMerchantKey();
        expectUnauthorized(
                SignedRequest.of("GET", "/payment_links").withoutTimestamp().send(client, baseUrl(), key),
                "missing_timestamp",
                "Missing X-API-Timestamp header");
    }

    @Test
    void rejectsMalformedTimestamp() {
        MerchantKey key = admin.newMerchantKey();
        expectUnauthorized(
                SignedRequest.of("GET", "/payment_links")
                        .timestamp("yesterday at noon")
                        .send(client, baseUrl(), key),
                "malformed_timestamp",
                "Malformed X-API-Timestamp: expected ISO 8601 UTC, e.g. 2026-01-01T12:00:00Z");
    }

    @Test
    void rejectsTimestampOlderThanFiveMinutes() {
        MerchantKey key = admin.newMerchantKey();
        expectUnauthorized(
                SignedRequest.of("GET", "/payment_links")
                        .timestamp(Instant.now().minus(Duration.ofMinutes(5)).minusSeconds(10))
                        .send(client, baseUrl(), key),
                "timestamp_expired",
                "Timestamp expired");
    }

    @Test
    void rejectsTimestampMoreThanFiveMinutesAhead() {
        MerchantKey key = admin.newMerchantKey();
        expectUnauthorized(
                SignedRequest.of("GET", "/payment_links")
                        .timestamp(Instant.now().plus(Duration.ofMinutes(5)).plusSeconds(10))
                        .send(client, baseUrl(), key),
                "timestamp_in_future",
                "Timestamp expired");
    }

    @Test
    void acceptsTimestampFourMinutesOld() {
        MerchantKey key = admin.newMerchantKey();
        SignedRequest.of("GET", "/payment_links")
                .timestamp(Instant.now().minus(Duration.ofMinutes(4)))
                .send(client, baseUrl(), key)
                .expectStatus()
                .isOk();
    }

    @Test
    void rejectsBodyTamperedAfterSigning() {
        MerchantKey key = admin.newMerchantKey();
        expectUnauthorized(
                SignedRequest.of("POST", "/payment_links")
                        .body("{\"amount\":\"1000.00\"}")
                        .signedBody("{\"amount\":\"10.00\"}".getBytes(StandardCharsets.UTF_8))
                        .send(client, baseUrl(), key),
                "invalid_signature",
                "Invalid signature");
    }

    @Test
    void rejectsSignatureMadeForAnotherPath() {
        MerchantKey key = admin.newMerchantKey();
        expectUnauthorized(
                SignedRequest.of("DELETE", "/payment_links/pl_1")
                        .signedPath("/payment_links/pl_2")
                        .send(client, baseUrl(), key),
                "invalid_signature",
                "Invalid signature");
    }

    @Test
    void rejectsSignatureOverFullGatewayPath() {
        MerchantKey key = admin.newMerchantKey();
        expectUnauthorized(
                SignedRequest.of("GET", "/payment_links")
                        .signedPath("/api/v1/payment_links")
                        .send(client, baseUrl(), key),
                "invalid_signature",
                "Invalid signature");
    }

    @Test
    void rejectsLowerCaseMethodInSignature() {
        MerchantKey key = admin.newMerchantKey();
        expectUnauthorized(
                SignedRequest.of("POST", "/payment_links")
                        .body("{}")
                        .signedMethod("post")
                        .send(client, baseUrl(), key),
                "invalid_signature",
                "Invalid signature");
    }

    @Test
    void acceptsQueryStringSignedWithAndWithoutQuery() {
        MerchantKey key = admin.newMerchantKey();
        JsonNode withQuery = json(SignedRequest.of("GET", "/payment_links?page=2&limit=10")
                .send(client, baseUrl(), key)
                .expectStatus()
                .isOk());
        assertThat(withQuery.get("query").stringValue()).isEqualTo("page=2&limit=10");
        SignedRequest.of("GET", "/payment_links?page=2&limit=10")
                .signedPath("/payment_links")
                .send(client, baseUrl(), key)
                .expectStatus()
                .isOk();
    }

    @Test
    void rejectsQuerySignedDifferently() {
        MerchantKey key = admin.newMerchantKey();
        expectUnauthorized(
                SignedRequest.of("GET", "/payment_links?page=3")
                        .signedPath("/payment_links?page=2")
                        .send(client, baseUrl(), key),
                "invalid_signature",
                "Invalid signature");
    }

    @Test
    void rejectsUnknownApiKey() {
        MerchantKey key = admin.newMerchantKey();
        String unknown = ApiKey.generate(Mode.TEST, new SecureRandom()).value();
        expectUnauthorized(
                SignedRequest.of("GET", "/payment_links").apiKey(unknown).send(client, baseUrl(), key),
                "invalid_api_key",
                "Invalid API key");
    }

    @Test
    void rejectsMalformedApiKey() {
        MerchantKey key = admin.newMerchantKey();
        JsonNode problem = json(SignedRequest.of("GET", "/payment_links")
                .apiKey("sk_live_whatever")
                .send(client, baseUrl(), key)
                .expectStatus()
                .isUnauthorized());
        assertThat(problem.get("code").stringValue()).isEqualTo("malformed_api_key");
        assertThat(problem.get("message").stringValue()).startsWith("Malformed API key");
    }

    @Test
    void rejectsKeyRevokedThroughAdminApiRightAway() {
        MerchantKey key = admin.newMerchantKey();
        SignedRequest.of("GET", "/payment_links")
                .send(client, baseUrl(), key)
                .expectStatus()
                .isOk();
        admin.revoke(key.apiKey());
        expectUnauthorized(
                SignedRequest.of("GET", "/payment_links").send(client, baseUrl(), key),
                "api_key_revoked",
                "API key has been revoked");
    }

    @Test
    void rejectsKeyRevokedByAnotherInstanceWithinCacheTtl() throws InterruptedException {
        MerchantKey key = admin.newMerchantKey();
        SignedRequest.of("GET", "/payment_links")
                .send(client, baseUrl(), key)
                .expectStatus()
                .isOk();
        // Another gateway instance revokes through the shared database; this one only learns it when its cache expires.
        database.sql("UPDATE api_key SET status = 'revoked', revoked_at = now() WHERE display_prefix = :prefix")
                .bind("prefix", key.prefix())
                .fetch()
                .rowsUpdated()
                .block();
        long deadline =
                System.nanoTime() + Duration.ofSeconds(1).plusMillis(700).toNanos(); // TTL 1 s + slack
        int status;
        do {
            status = SignedRequest.of("GET", "/payment_links")
                    .send(client, baseUrl(), key)
                    .returnResult(byte[].class)
                    .getStatus()
                    .value();
            if (status == 401) {
                break;
            }
            Thread.sleep(100);
        } while (System.nanoTime() < deadline);
        assertThat(status).as("revoked key refused within the cache TTL").isEqualTo(401);
    }

    @Test
    void rejectsReplayedPost() {
        MerchantKey key = admin.newMerchantKey();
        SignedRequest request = SignedRequest.of("POST", "/payment_links").body("{\"amount\":\"5.00\"}");
        request.send(client, baseUrl(), key).expectStatus().isOk();
        expectUnauthorized(
                request.send(client, baseUrl(), key),
                "replayed_request",
                "Request already processed (replayed request)");
    }

    @Test
    void rejectsReplayedPostWithReencodedSignature() {
        MerchantKey key = admin.newMerchantKey();
        SignedRequest request = SignedRequest.of("DELETE", "/payment_links/pl_9");
        String signature = request.signature(key);
        request.send(client, baseUrl(), key).expectStatus().isOk();
        assertThat(signature).endsWith("=");
        String unpadded = signature.replace("=", "");
        assertThat(Base64.getDecoder().decode(unpadded))
                .isEqualTo(Base64.getDecoder().decode(signature));
        WebTestClient.ResponseSpec replay = client.delete()
                .uri(baseUrl() + "/api/v1/payment_links/pl_9")
                .header("X-API-Key", key.apiKey())
                .header("X-API-Signature", unpadded)
                .header("X-API-Timestamp", request.timestamp())
                .exchange();
        expectUnauthorized(replay, "replayed_request", "Request already processed (replayed request)");
    }

    @Test
    void allowsReplayedGet() {
        MerchantKey key = admin.newMerchantKey();
        SignedRequest request = SignedRequest.of("GET", "/payment_links/pl_1");
        request.send(client, baseUrl(), key).expectStatus().isOk();
        request.send(client, baseUrl(), key).expectStatus().isOk();
    }

    @Test
    void countsAuthenticationFailuresByReason() {
        MerchantKey key = admin.newMerchantKey();
        double before = meters.counter("gateway.auth.failures", "reason", "invalid_signature")
                .count();
        SignedRequest.of("GET", "/payment_links")
                .signedPath("/other")
                .send(client, baseUrl(), key)
                .expectStatus()
                .isUnauthorized();
        assertThat(meters.counter("gateway.auth.failures", "reason", "invalid_signature")
                        .count())
                .isEqualTo(before + 1);
    }

    @Test
    void problemBodyCarriesRequestId() {
        MerchantKey key = admin.newMerchantKey();
        WebTestClient.ResponseSpec response = SignedRequest.of("GET", "/payment_links")
                .withoutSignature()
                .header("X-Request-Id", "client-req-12345")
                .send(client, baseUrl(), key);
        response.expectHeader()
                .valueEquals("X-Request-Id", "client-req-12345")
                .expectHeader()
                .contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON);
        assertThat(json(response).get("request_id").stringValue()).isEqualTo("client-req-12345");
    }

    static void expectUnauthorized(WebTestClient.ResponseSpec response, String code, String message) {
        response.expectStatus()
                .isUnauthorized()
                .expectHeader()
                .contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON)
                .expectBody()
                .jsonPath("$.status")
                .isEqualTo(401)
                .jsonPath("$.code")
                .isEqualTo(code)
                .jsonPath("$.message")
                .isEqualTo(message);
    }
}
