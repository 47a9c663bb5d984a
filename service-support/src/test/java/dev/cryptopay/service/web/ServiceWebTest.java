package dev.cryptopay.service.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cryptopay.auth.Mode;
import dev.cryptopay.auth.internal.InternalHeaders;
import dev.cryptopay.auth.internal.InternalIdentityToken;
import dev.cryptopay.auth.internal.MerchantIdentity;
import dev.cryptopay.testsupport.PostgresDatabaseExtension;
import java.time.Instant;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webtestclient.autoconfigure.AutoConfigureWebTestClient;
import org.springframework.http.MediaType;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.web.reactive.server.WebTestClient;

@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@AutoConfigureWebTestClient
class ServiceWebTest {

    @RegisterExtension
    static final PostgresDatabaseExtension postgres = new PostgresDatabaseExtension();

    @DynamicPropertySource
    static void database(DynamicPropertyRegistry registry) {
        postgres.registerSpringProperties(registry);
    }

    private static final InternalIdentityToken TOKENS =
            InternalIdentityToken.fromSecret("test-secret-that-is-at-least-32-bytes-long");
    private static final MerchantIdentity MERCHANT = new MerchantIdentity(UUID.randomUUID(), Mode.TEST);

    @Autowired
    WebTestClient client;

    private WebTestClient.RequestHeadersSpec<?> asMerchant(
            String method, String path, MerchantIdentity identity, MerchantIdentity signedIdentity, String signedPath) {
        String token = TOKENS.issue(signedIdentity, method, signedPath, Instant.now());
        var spec = method.equals("GET") ? client.get().uri(path) : client.post().uri(path);
        return spec.header(InternalHeaders.MERCHANT_ID, identity.merchantId().toString())
                .header(InternalHeaders.MERCHANT_MODE, identity.mode().wireName())
                .header(InternalHeaders.INTERNAL_AUTH, token);
    }

    @Test
    void passesTheGatewayIdentityToTheHandler() {
        asMerchant("GET", "/whoami", MERCHANT, MERCHANT, "/whoami")
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody()
                .jsonPath("$.merchant_id")
                .isEqualTo(MERCHANT.merchantId().toString())
                .jsonPath("$.mode")
                .isEqualTo("test");
    }

    @Test
    void refusesARequestWithoutTheInternalToken() {
        client.get()
                .uri("/whoami")
                .header(InternalHeaders.MERCHANT_ID, MERCHANT.merchantId().toString())
                .header(InternalHeaders.MERCHANT_MODE, "test")
                .exchange()
                .expectStatus()
                .isUnauthorized()
                .expectHeader()
                .contentType(MediaType.APPLICATION_PROBLEM_JSON)
                .expectBody()
                .jsonPath("$.status")
                .isEqualTo(401)
                .jsonPath("$.code")
                .isEqualTo("internal_auth_failed")
                .jsonPath("$.message")
                .isEqualTo("Requests must come through the gateway")
                .jsonPath("$.detail")
                .isEqualTo("Requests must come through the gateway")
                .jsonPath("$.request_id")
                .isNotEmpty();
    }

    @Test
    void refusesASpoofedMerchantIdUnderAnotherMerchantsToken() {
        MerchantIdentity other = new MerchantIdentity(UUID.randomUUID(), Mode.TEST);
        asMerchant("GET", "/whoami", other, MERCHANT, "/whoami")
                .exchange()
                .expectStatus()
                .isUnauthorized();
    }

    @Test
    void refusesAModeSwitchedFromTestToLive() {
        MerchantIdentity live = new MerchantIdentity(MERCHANT.merchantId(), Mode.LIVE);
        asMerchant("GET", "/whoami", live, MERCHANT, "/whoami")
                .exchange()
                .expectStatus()
                .isUnauthorized();
    }

    @Test
    void refusesATokenIssuedForAnotherPath() {
        asMerchant("GET", "/whoami", MERCHANT, MERCHANT, "/greetings")
                .exchange()
                .expectStatus()
                .isUnauthorized();
    }

    @Test
    void refusesATokenOlderThanItsMaximumAge() {
        String stale = TOKENS.issue(MERCHANT, "GET", "/whoami", Instant.now().minusSeconds(120));
        client.get()
                .uri("/whoami")
                .header(InternalHeaders.MERCHANT_ID, MERCHANT.merchantId().toString())
                .header(InternalHeaders.MERCHANT_MODE, "test")
                .header(InternalHeaders.INTERNAL_AUTH, stale)
                .exchange()
                .expectStatus()
                .isUnauthorized();
    }

    @Test
    void refusesMalformedIdentityHeadersWithA401NotA500() {
        client.get()
                .uri("/whoami")
                .header(InternalHeaders.MERCHANT_ID, "not-a-uuid")
                .header(InternalHeaders.MERCHANT_MODE, "test")
                .header(InternalHeaders.INTERNAL_AUTH, "v1.1.x")
                .exchange()
                .expectStatus()
                .isUnauthorized();
    }

    @Test
    void answersA401WhenAValidInternalCallCarriesNoMerchant() {
        String token = TOKENS.issue(null, "GET", "/whoami", Instant.now());
        client.get()
                .uri("/whoami")
                .header(InternalHeaders.INTERNAL_AUTH, token)
                .exchange()
                .expectStatus()
                .isUnauthorized()
                .expectBody()
                .jsonPath("$.code")
                .isEqualTo("merchant_identity_missing");
    }

    @Test
    void leavesHealthProbesOpen() {
        client.get().uri("/actuator/health").exchange().expectStatus().isOk();
    }

    @Test
    void echoesTheGatewayRequestIdOrMakesOne() {
        asMerchant("GET", "/whoami", MERCHANT, MERCHANT, "/whoami")
                .header("X-Request-Id", "req-12345678")
                .exchange()
                .expectHeader()
                .valueEquals("X-Request-Id", "req-12345678");
        client.get()
                .uri("/actuator/health")
                .exchange()
                .expectHeader()
                .value("X-Request-Id", id -> assertThat(UUID.fromString(id)).isNotNull());
    }

    @Test
    void answersMalformedJsonWith400() {
        ((WebTestClient.RequestBodySpec) asMerchant("POST", "/greetings", MERCHANT, MERCHANT, "/greetings"))
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue("{\"name\": ")
                .exchange()
                .expectStatus()
                .isBadRequest()
                .expectHeader()
                .contentType(MediaType.APPLICATION_PROBLEM_JSON)
                .expectBody()
                .jsonPath("$.code")
                .isEqualTo("invalid_request")
                .jsonPath("$.message")
                .isEqualTo("Malformed JSON body or a field of the wrong type");
    }

    @Test
    void answersAFieldOfTheWrongTypeWith400() {
        ((WebTestClient.RequestBodySpec) asMerchant("POST", "/greetings", MERCHANT, MERCHANT, "/greetings"))
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue("{\"name\":\"a\",\"count\":\"many\"}")
                .exchange()
                .expectStatus()
                .isBadRequest()
                .expectBody()
                .jsonPath("$.code")
                .isEqualTo("invalid_request");
    }

    @Test
    void answersAnOversizedBodyWith413() {
        String huge = "{\"name\":\"" + "x".repeat(100_000) + "\",\"count\":1}";
        ((WebTestClient.RequestBodySpec) asMerchant("POST", "/greetings", MERCHANT, MERCHANT, "/greetings"))
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(huge)
                .exchange()
                .expectStatus()
                .isEqualTo(413)
                .expectBody()
                .jsonPath("$.code")
                .isEqualTo("payload_too_large");
    }

    @Test
    void keepsDecimalsExactAndPlain() {
        ((WebTestClient.RequestBodySpec) asMerchant("POST", "/echo", MERCHANT, MERCHANT, "/echo"))
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue("{\"a\":0.1,\"b\":0.0000001,\"c\":12345678901234567890.123456789012345678}")
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody(String.class)
                .isEqualTo("{\"a\":0.1,\"b\":0.0000001,\"c\":12345678901234567890.123456789012345678}");
    }

    @Test
    void refusesAJsonBodyWithADuplicateKey() {
        ((WebTestClient.RequestBodySpec) asMerchant("POST", "/echo", MERCHANT, MERCHANT, "/echo"))
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue("{\"a\":1,\"a\":2}")
                .exchange()
                .expectStatus()
                .isBadRequest()
                .expectBody()
                .jsonPath("$.code")
                .isEqualTo("invalid_request");
    }

    @Test
    void rendersAnApiExceptionWithItsStatusAndCode() {
        asMerchant("GET", "/conflict", MERCHANT, MERCHANT, "/conflict")
                .exchange()
                .expectStatus()
                .isEqualTo(409)
                .expectBody()
                .jsonPath("$.title")
                .isEqualTo("Conflict")
                .jsonPath("$.type")
                .isEqualTo("about:blank")
                .jsonPath("$.code")
                .isEqualTo("duplicate_order_id")
                .jsonPath("$.message")
                .isEqualTo("order_id already used");
    }

    @Test
    void hidesInternalsOfAnUnexpectedFailure() {
        asMerchant("GET", "/boom", MERCHANT, MERCHANT, "/boom")
                .exchange()
                .expectStatus()
                .isEqualTo(500)
                .expectBody(String.class)
                .value(body -> {
                    assertThat(body).contains("\"code\":\"internal_error\"", "\"message\":\"Internal server error\"");
                    assertThat(body).doesNotContain("hunter2", "IllegalStateException");
                });
    }

    @Test
    void answersAnUnknownRouteWith404InTheErrorShape() {
        asMerchant("GET", "/nowhere", MERCHANT, MERCHANT, "/nowhere")
                .exchange()
                .expectStatus()
                .isNotFound()
                .expectHeader()
                .contentType(MediaType.APPLICATION_PROBLEM_JSON)
                .expectBody()
                .jsonPath("$.code")
                .isEqualTo("not_found")
                .jsonPath("$.message")
                .isEqualTo("No route for GET /nowhere");
    }
}
