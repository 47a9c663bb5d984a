package dev.cryptopay.gateway.identity;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cryptopay.auth.Mode;
import dev.cryptopay.auth.internal.InternalCallers;
import dev.cryptopay.auth.internal.InternalRequest;
import dev.cryptopay.auth.internal.InternalTokenOutcome;
import dev.cryptopay.auth.internal.InternalTokenSigner;
import dev.cryptopay.auth.internal.InternalTokenVerification;
import dev.cryptopay.auth.internal.InternalTokenVerifier;
import dev.cryptopay.auth.internal.MerchantCredential;
import dev.cryptopay.auth.internal.MerchantIdentity;
import dev.cryptopay.auth.keys.VerificationKey;
import dev.cryptopay.gateway.support.GatewayTestBase;
import dev.cryptopay.gateway.support.MerchantKey;
import dev.cryptopay.gateway.support.SignedRequest;
import dev.cryptopay.gateway.support.TestEnvironment;
import dev.cryptopay.testsupport.InternalTestKeys;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.core.ParameterizedTypeReference;
import org.springframework.http.MediaType;
import org.springframework.http.codec.ServerSentEvent;
import reactor.core.publisher.Flux;
import reactor.test.StepVerifier;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

class ForwardingTest extends GatewayTestBase {

    /** What the service that answered holds: the gateway's public key, and its own id. */
    private static InternalTokenVerifier service(JsonNode echo) {
        return new InternalTokenVerifier(
                echo.get("service").stringValue(),
                Map.of(InternalCallers.GATEWAY, List.of(VerificationKey.parse(InternalTestKeys.GATEWAY_PUBLIC_KEY))));
    }

    /** How the service that answered judges the forwarded request's token: against exactly what reached it. */
    private static InternalTokenVerification verify(JsonNode echo, String token, MerchantIdentity identity) {
        JsonNode query = echo.get("query");
        InternalRequest arrived = InternalRequest.of(
                echo.get("method").stringValue(),
                echo.get("path").stringValue(),
                query == null || query.isNull() ? null : query.stringValue(),
                Base64.getDecoder().decode(echo.get("body_base64").stringValue()));
        List<String> credential = values(echo.get("headers"), "x-merchant-credential");
        return service(echo)
                .verify(
                        token,
                        identity,
                        credential.isEmpty() ? null : MerchantCredential.fromWireName(credential.get(0)),
                        arrived,
                        Instant.now(),
                        InternalTokenSigner.DEFAULT_MAX_AGE);
    }

    /** The one token on the forwarded request, checked as the service checks it. */
    private static InternalTokenOutcome tokenOutcome(JsonNode echo, MerchantIdentity identity) {
        List<String> tokens = values(echo.get("headers"), "x-internal-auth");
        assertThat(tokens).hasSize(1);
        InternalTokenVerification verification = verify(echo, tokens.get(0), identity);
        if (verification.isValid()) {
            assertThat(verification.caller()).isEqualTo(InternalCallers.GATEWAY);
        }
        return verification.outcome();
    }

    @Test
    void theTokenBindsTheQueryAndTheBodyTheServiceReceives() {
        MerchantKey key = admin.newMerchantKey();
        byte[] body = "{\"amount\":\"10.00\",\t\"note\":\"Café\"}\n".getBytes(StandardCharsets.UTF_8);
        JsonNode echo = json(SignedRequest.of("POST", "/payment_links?expand=true&q=caf%C3%A9&empty=")
                .body(body)
                .send(client, baseUrl(), key)
                .expectStatus()
                .isOk());
        assertThat(echo.get("query").stringValue()).isEqualTo("expand=true&q=caf%C3%A9&empty=");
        assertThat(tokenOutcome(echo, key.identity())).isEqualTo(InternalTokenOutcome.VALID);

        String token = values(echo.get("headers"), "x-internal-auth").get(0);
        assertThat(token).startsWith("v3.gateway.payment-links-service.");
        assertThat(values(echo.get("headers"), "x-merchant-credential")).containsExactly("api_key");
        ObjectNode otherQuery = ((ObjectNode) echo.deepCopy()).put("query", "expand=false&q=caf%C3%A9&empty=");
        assertThat(verify(otherQuery, token, key.identity()).outcome()).isEqualTo(InternalTokenOutcome.BAD_SIGNATURE);
        ObjectNode noQuery = ((ObjectNode) echo.deepCopy()).putNull("query");
        assertThat(verify(noQuery, token, key.identity()).outcome()).isEqualTo(InternalTokenOutcome.BAD_SIGNATURE);
        ObjectNode otherBody = ((ObjectNode) echo.deepCopy())
                .put("body_base64", Base64.getEncoder().encodeToString("{\"amount\":\"99.00\"}".getBytes()));
        assertThat(verify(otherBody, token, key.identity()).outcome()).isEqualTo(InternalTokenOutcome.BAD_SIGNATURE);
    }

    @Test
    void forwardsExactRawBodyBytes() {
        MerchantKey key = admin.newMerchantKey();
        // Non-ASCII, odd whitespace, a tab, CRLF and trailing spaces: nothing may be normalised on the way.
        byte[] body = "{ \"description\" :\t\"Café – 東京 ✓\" ,\r\n  \"amount\":\"1.50\"   }  \n"
                .getBytes(StandardCharsets.UTF_8);
        JsonNode echo = json(SignedRequest.of("POST", "/payment_links")
                .body(body)
                .send(client, baseUrl(), key)
                .expectStatus()
                .isOk());
        assertThat(Base64.getDecoder().decode(echo.get("body_base64").stringValue()))
                .isEqualTo(body);
    }

    @Test
    void replacesSpoofedIdentityHeadersWithTheGatewaysOwn() {
        MerchantKey key = admin.newMerchantKey();
        String spoofedMerchant = UUID.randomUUID().toString();
        JsonNode echo = json(SignedRequest.of("GET", "/payment_links/pl_42?expand=true")
                .header("X-Merchant-Id", spoofedMerchant)
                .header("X-Merchant-Mode", "live")
                .header("X-Merchant-Extra", "evil")
                .header("X-Merchant-Name", "Evil+Corp")
                .header("X-Internal-Auth", "v1.1.forged")
                .header("X-Internal-Whatever", "evil")
                .send(client, baseUrl(), key)
                .expectStatus()
                .isOk());
        JsonNode headers = echo.get("headers");
        assertThat(values(headers, "x-merchant-id"))
                .containsExactly(key.merchantId().toString());
        assertThat(values(headers, "x-merchant-mode")).containsExactly("test");
        assertThat(values(headers, "x-merchant-name"))
                .as("the merchant's own name, never the client's")
                .hasSize(1)
                .doesNotContain("Evil+Corp");
        assertThat(headers.has("x-merchant-extra")).isFalse();
        assertThat(headers.has("x-internal-whatever")).isFalse();
        assertThat(headers.has("x-api-key"))
                .as("the API key is not passed to services")
                .isFalse();
        assertThat(headers.has("x-api-signature")).isFalse();
        assertThat(values(headers, "x-request-id")).hasSize(1);
        assertThat(echo.get("path").stringValue()).isEqualTo("/payment_links/pl_42");
        assertThat(tokenOutcome(echo, key.identity())).isEqualTo(InternalTokenOutcome.VALID);
        assertThat(tokenOutcome(echo, new MerchantIdentity(UUID.fromString(spoofedMerchant), key.mode())))
                .isEqualTo(InternalTokenOutcome.BAD_SIGNATURE);
    }

    @Test
    void routesEachPrefixToItsService() {
        MerchantKey key = admin.newMerchantKey();
        Map<String, String> expected = Map.of(
                "/notifications/settings", TestEnvironment.notifications().name(),
                "/notifications/emails/e_1", TestEnvironment.notifications().name(),
                "/payment_links/currencies", TestEnvironment.paymentLinks().name(),
                "/subscriptions/plans", TestEnvironment.subscriptions().name(),
                "/subscriber/sub_1", TestEnvironment.subscriptions().name(),
                "/invitations", TestEnvironment.subscriptions().name(),
                "/webhook-endpoints", TestEnvironment.webhooks().name(),
                "/webhook-deliveries/d_1", TestEnvironment.webhooks().name(),
                "/events/ev_1", TestEnvironment.webhooks().name());
        expected.forEach((path, service) -> {
            JsonNode echo = json(SignedRequest.of("GET", path)
                    .send(client, baseUrl(), key)
                    .expectStatus()
                    .isOk());
            assertThat(echo.get("service").stringValue()).as(path).isEqualTo(service);
            assertThat(echo.get("path").stringValue()).as(path).isEqualTo(path);
            assertThat(tokenOutcome(echo, key.identity()))
                    .as("token for " + path)
                    .isEqualTo(InternalTokenOutcome.VALID);
        });
    }

    @Test
    void forwardsTheMerchantsNameForCustomerPagesOnSignedRoutesOnly() {
        String name = "Beanery" + UUID.randomUUID().toString().substring(0, 8);
        JsonNode merchant = admin.createMerchant(name);
        MerchantKey key = admin.newKey(UUID.fromString(merchant.get("id").stringValue()), Mode.TEST, null);
        JsonNode signed = json(SignedRequest.of("GET", "/subscriptions/plans/")
                .send(client, baseUrl(), key)
                .expectStatus()
                .isOk());
        assertThat(values(signed.get("headers"), "x-merchant-name")).containsExactly(name);

        JsonNode page = json(client.get()
                .uri(baseUrl() + "/checkout/subscribe?subscriber_id=x")
                .header("X-Merchant-Name", "Evil+Corp")
                .exchange()
                .expectStatus()
                .isOk());
        assertThat(page.get("headers").has("x-merchant-name")).isFalse();
    }

    @Test
    void forwardsPublicRouteWithoutSignatureAndWithAnonymousToken() {
        JsonNode echo = json(client.get()
                .uri(baseUrl() + "/api/v1/public/plans/pl_1?lang=en")
                .header("X-Merchant-Id", UUID.randomUUID().toString())
                .header("X-Forwarded-For", "198.51.100.7")
                .exchange()
                .expectStatus()
                .isOk());
        assertThat(echo.get("service").stringValue()).isEqualTo("subscriptions-service");
        assertThat(echo.get("path").stringValue()).isEqualTo("/public/plans/pl_1");
        JsonNode headers = echo.get("headers");
        assertThat(headers.has("x-merchant-id")).isFalse();
        assertThat(headers.has("x-merchant-mode")).isFalse();
        assertThat(echo.get("query").stringValue()).isEqualTo("lang=en");
        assertThat(tokenOutcome(echo, null)).isEqualTo(InternalTokenOutcome.VALID);
    }

    @Test
    void forwardsTheCheckoutUnchangedWithoutSignatureToPaymentLinks() {
        MerchantKey key = admin.newMerchantKey();
        JsonNode echo = json(client.get()
                .uri(baseUrl() + "/checkout/payment_link?payment_id=7f1c2a4e-0000-4000-8000-000000000001")
                .header("X-Merchant-Id", key.merchantId().toString())
                .header("X-API-Key", key.apiKey())
                .exchange()
                .expectStatus()
                .isOk()
                .expectHeader()
                .valueEquals("X-RateLimit-Limit", "300"));
        assertThat(echo.get("service").stringValue()).isEqualTo("payment-links-service");
        assertThat(echo.get("path").stringValue()).isEqualTo("/checkout/payment_link");
        assertThat(echo.get("query").stringValue()).isEqualTo("payment_id=7f1c2a4e-0000-4000-8000-000000000001");
        JsonNode headers = echo.get("headers");
        assertThat(headers.has("x-merchant-id")).isFalse();
        assertThat(headers.has("x-merchant-mode")).isFalse();
        assertThat(headers.has("x-api-key")).isFalse();
        assertThat(headers.has("x-api-signature")).isFalse();
        assertThat(headers.has("x-api-timestamp")).isFalse();
        assertThat(tokenOutcome(echo, null)).isEqualTo(InternalTokenOutcome.VALID);

        JsonNode asset = json(client.get()
                .uri(baseUrl() + "/checkout/assets/checkout.js?v=0123456789abcdef")
                .exchange()
                .expectStatus()
                .isOk());
        assertThat(asset.get("path").stringValue()).isEqualTo("/checkout/assets/checkout.js");
    }

    @Test
    void forwardsTheSubscribePageUnchangedWithoutSignatureToSubscriptions() {
        MerchantKey key = admin.newMerchantKey();
        for (String path : new String[] {
            "/checkout/subscribe", "/checkout/subscribe/status", "/checkout/subscribe/assets/subscribe.js"
        }) {
            JsonNode echo = json(client.get()
                    .uri(baseUrl() + path + "?subscriber_id=7f1c2a4e-0000-4000-8000-000000000002")
                    .header("X-Merchant-Id", key.merchantId().toString())
                    .header("X-API-Key", key.apiKey())
                    .exchange()
                    .expectStatus()
                    .isOk()
                    .expectHeader()
                    .valueEquals("X-RateLimit-Limit", "300"));
            assertThat(echo.get("service").stringValue()).as(path).isEqualTo("subscriptions-service");
            assertThat(echo.get("path").stringValue()).as(path).isEqualTo(path);
            assertThat(echo.get("query").stringValue()).isEqualTo("subscriber_id=7f1c2a4e-0000-4000-8000-000000000002");
            JsonNode headers = echo.get("headers");
            assertThat(headers.has("x-merchant-id")).isFalse();
            assertThat(headers.has("x-api-key")).isFalse();
            assertThat(tokenOutcome(echo, null)).isEqualTo(InternalTokenOutcome.VALID);
        }
        byte[] form = "subscriber_id=x&subscribe_hash=0x1".getBytes(StandardCharsets.UTF_8);
        JsonNode enrol = json(client.post()
                .uri(baseUrl() + "/checkout/subscribe/enrol")
                .contentType(MediaType.APPLICATION_FORM_URLENCODED)
                .bodyValue(form)
                .exchange()
                .expectStatus()
                .isOk());
        assertThat(enrol.get("service").stringValue()).isEqualTo("subscriptions-service");
        assertThat(Base64.getDecoder().decode(enrol.get("body_base64").stringValue()))
                .isEqualTo(form);
        assertThat(tokenOutcome(enrol, null)).isEqualTo(InternalTokenOutcome.VALID);

        // Only the subscribe page moves: a path that merely starts with the same letters stays the checkout's.
        assertThat(json(client.get()
                                .uri(baseUrl() + "/checkout/subscriber")
                                .exchange()
                                .expectStatus()
                                .isOk())
                        .get("service")
                        .stringValue())
                .isEqualTo("payment-links-service");
    }

    @Test
    void theCheckoutIsNotPartOfTheMerchantApi() {
        client.get()
                .uri(baseUrl() + "/api/v1/checkout/payment_link?payment_id=x")
                .exchange()
                .expectStatus()
                .isNotFound();
        client.get()
                .uri(baseUrl() + "/checkout/../internal/payment_links/x/transactions")
                .exchange()
                .expectStatus()
                .isBadRequest();
    }

    @Test
    void passesTheCheckoutEventStreamOnAsItIsWritten() {
        // The upstream writes one event and keeps the stream open: it arrives only if the gateway does not buffer.
        Flux<ServerSentEvent<String>> events = client.get()
                .uri(baseUrl() + "/checkout/payment_link/events?payment_id=abc")
                .accept(MediaType.TEXT_EVENT_STREAM)
                .exchange()
                .expectStatus()
                .isOk()
                .expectHeader()
                .contentTypeCompatibleWith(MediaType.TEXT_EVENT_STREAM)
                .returnResult(new ParameterizedTypeReference<ServerSentEvent<String>>() {})
                .getResponseBody();
        StepVerifier.create(events.take(1))
                .assertNext(event -> {
                    assertThat(event.event()).isEqualTo("echo");
                    JsonNode echo = JSON.readTree(event.data());
                    assertThat(echo.get("path").stringValue()).isEqualTo("/checkout/payment_link/events");
                    assertThat(tokenOutcome(echo, null))
                            .as("a bodyless stream request carries a token over no body")
                            .isEqualTo(InternalTokenOutcome.VALID);
                })
                .expectComplete()
                .verify(Duration.ofSeconds(20));
    }

    @Test
    void resolvesMerchantKeyOnPublicSubscriptionPayment() {
        MerchantKey key = admin.newMerchantKey();
        byte[] body =
                ("{\"merchant_key\":\"" + key.apiKey() + "\",\"tx_hash\":\"0xabc\"}").getBytes(StandardCharsets.UTF_8);
        JsonNode echo = json(client.post()
                .uri(baseUrl() + "/api/v1/public/subscriptions/link/payment")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(body)
                .exchange()
                .expectStatus()
                .isOk());
        assertThat(echo.get("path").stringValue()).isEqualTo("/public/subscriptions/link/payment");
        JsonNode headers = echo.get("headers");
        assertThat(values(headers, "x-merchant-id"))
                .containsExactly(key.merchantId().toString());
        assertThat(values(headers, "x-merchant-mode")).containsExactly("test");
        assertThat(values(headers, "x-merchant-credential"))
                .as("an API key given as merchant_key")
                .containsExactly("api_key");
        assertThat(tokenOutcome(echo, key.identity())).isEqualTo(InternalTokenOutcome.VALID);
        assertThat(Base64.getDecoder().decode(echo.get("body_base64").stringValue()))
                .isEqualTo(body);
    }

    @Test
    void rejectsUnknownMerchantKeyOnPublicSubscriptionPayment() {
        client.post()
                .uri(baseUrl() + "/api/v1/public/subscriptions/link/payment")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue("{\"merchant_key\":\"mk_test_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA\"}")
                .exchange()
                .expectStatus()
                .isUnauthorized()
                .expectBody()
                .jsonPath("$.code")
                .isEqualTo("invalid_api_key")
                .jsonPath("$.message")
                .isEqualTo("Invalid merchant_key");
    }

    @Test
    void rejectsMissingOrMalformedMerchantKey() {
        client.post()
                .uri(baseUrl() + "/api/v1/public/subscriptions/link/payment")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue("{\"tx_hash\":\"0xabc\"}")
                .exchange()
                .expectStatus()
                .isUnauthorized()
                .expectBody()
                .jsonPath("$.code")
                .isEqualTo("missing_merchant_key");
        client.post()
                .uri(baseUrl() + "/api/v1/public/subscriptions/link/payment")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue("{\"merchant_key\":\"nope\"}")
                .exchange()
                .expectStatus()
                .isUnauthorized()
                .expectBody()
                .jsonPath("$.code")
                .isEqualTo("malformed_api_key");
    }

    @Test
    void rejectsRevokedMerchantKey() {
        MerchantKey key = admin.newMerchantKey();
        admin.revoke(key.apiKey());
        client.post()
                .uri(baseUrl() + "/api/v1/public/subscriptions/link/payment")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue("{\"merchant_key\":\"" + key.apiKey() + "\"}")
                .exchange()
                .expectStatus()
                .isUnauthorized()
                .expectBody()
                .jsonPath("$.code")
                .isEqualTo("api_key_revoked");
    }

    @Test
    void answersNotFoundProblemForUnknownRoute() {
        client.get()
                .uri(baseUrl() + "/api/v1/nothing-here")
                .exchange()
                .expectStatus()
                .isNotFound()
                .expectHeader()
                .contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON)
                .expectBody()
                .jsonPath("$.code")
                .isEqualTo("not_found")
                .jsonPath("$.status")
                .isEqualTo(404);
    }

    @Test
    void neverRoutesServiceInternalOrActuatorPaths() {
        MerchantKey key = admin.newMerchantKey();
        client.get()
                .uri(baseUrl() + "/api/v1/internal/merchants")
                .exchange()
                .expectStatus()
                .isNotFound();
        client.get()
                .uri(baseUrl() + "/internal/merchants")
                .exchange()
                .expectStatus()
                .isNotFound();
        SignedRequest.of("GET", "/payment_links/../internal/x")
                .send(client, baseUrl(), key)
                .expectStatus()
                .isBadRequest()
                .expectBody()
                .jsonPath("$.code")
                .isEqualTo("invalid_path");
        SignedRequest.of("GET", "/payment_links/%2e%2e/actuator/env")
                .send(client, baseUrl(), key)
                .expectStatus()
                .isBadRequest()
                .expectBody()
                .jsonPath("$.code")
                .isEqualTo("invalid_path");
    }

    @Test
    void refusesOversizedBodyWith413() {
        MerchantKey key = admin.newMerchantKey();
        byte[] body = new byte[1024 * 1024 + 1];
        java.util.Arrays.fill(body, (byte) 'a');
        SignedRequest.of("POST", "/payment_links")
                .body(body)
                .send(client, baseUrl(), key)
                .expectStatus()
                .isEqualTo(413)
                .expectHeader()
                .contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON)
                .expectBody()
                .jsonPath("$.code")
                .isEqualTo("payload_too_large");
    }

    @Test
    void acceptsBodyOfExactlyTheLimit() {
        MerchantKey key = admin.newMerchantKey();
        byte[] body = new byte[1024 * 1024];
        java.util.Arrays.fill(body, (byte) 'b');
        var bigClient = client.mutate()
                .codecs(codecs -> codecs.defaultCodecs().maxInMemorySize(4 * 1024 * 1024))
                .build();
        JsonNode echo = json(SignedRequest.of("POST", "/payment_links")
                .body(body)
                .send(bigClient, baseUrl(), key)
                .expectStatus()
                .isOk());
        assertThat(Base64.getDecoder().decode(echo.get("body_base64").stringValue()))
                .isEqualTo(body);
    }

    @Test
    void keepsSaneClientRequestIdAndReplacesJunk() {
        MerchantKey key = admin.newMerchantKey();
        JsonNode echo = json(SignedRequest.of("GET", "/payment_links")
                .header("X-Request-Id", "abc-123-xyz-789")
                .send(client, baseUrl(), key)
                .expectStatus()
                .isOk()
                .expectHeader()
                .valueEquals("X-Request-Id", "abc-123-xyz-789"));
        assertThat(values(echo.get("headers"), "x-request-id")).containsExactly("abc-123-xyz-789");
        JsonNode replaced = json(SignedRequest.of("GET", "/payment_links")
                .header("X-Request-Id", "bad id <script>")
                .send(client, baseUrl(), key)
                .expectStatus()
                .isOk());
        assertThat(values(replaced.get("headers"), "x-request-id").get(0))
                .isNotEqualTo("bad id <script>")
                .matches("[0-9a-f-]{36}");
    }

    private static List<String> values(JsonNode headers, String name) {
        JsonNode node = headers.get(name);
        if (node == null) {
            return List.of();
        }
        return node.valueStream().map(JsonNode::stringValue).toList();
    }
}
