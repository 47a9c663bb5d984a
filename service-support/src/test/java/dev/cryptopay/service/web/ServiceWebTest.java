package dev.cryptopay.service.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cryptopay.auth.Mode;
import dev.cryptopay.auth.internal.InternalHeaders;
import dev.cryptopay.auth.internal.InternalRequest;
import dev.cryptopay.auth.internal.MerchantCredential;
import dev.cryptopay.auth.internal.MerchantIdentity;
import dev.cryptopay.testsupport.PostgresDatabaseExtension;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webtestclient.autoconfigure.AutoConfigureWebTestClient;
import org.springframework.http.HttpMethod;
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

    private static final MerchantIdentity MERCHANT = new MerchantIdentity(UUID.randomUUID(), Mode.TEST);

    @Autowired
    WebTestClient client;

    /** A request as the gateway forwards it for {@link #MERCHANT}, with a token over exactly what is sent. */
    private WebTestClient.RequestHeadersSpec<?> asMerchant(String method, String path) {
        return asMerchant(method, path, null);
    }

    private WebTestClient.RequestBodySpec asMerchant(String method, String path, byte[] body) {
        String token = TestTokens.GATEWAY.issue(
                TestTokens.AUDIENCE,
                MERCHANT,
                MerchantCredential.API_KEY,
                InternalRequest.of(method, path, null, body),
                Instant.now());
        return client.method(HttpMethod.valueOf(method))
                .uri(path)
                .header(InternalHeaders.MERCHANT_ID, MERCHANT.merchantId().toString())
                .header(InternalHeaders.MERCHANT_MODE, MERCHANT.mode().wireName())
                .header(InternalHeaders.MERCHANT_CREDENTIAL, MerchantCredential.API_KEY.wireName())
                .header(InternalHeaders.INTERNAL_AUTH, token);
    }

    private WebTestClient.ResponseSpec postJson(String path, String json) {
        byte[] body = json.getBytes(StandardCharsets.UTF_8);
        return asMerchant("POST", path, body)
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(body)
                .exchange();
    }

    @Test
    void passesTheGatewayIdentityToTheHandler() {
        asMerchant("GET", "/whoami")
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
    void answersA401WhenAValidInternalCallCarriesNoMerchant() {
        String token = TestTokens.GATEWAY.issue(
                TestTokens.AUDIENCE, InternalRequest.of("GET", "/whoami", null, null), Instant.now());
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
        asMerchant("GET", "/whoami")
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
        postJson("/greetings", "{\"name\": ")
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
        postJson("/greetings", "{\"name\":\"a\",\"count\":\"many\"}")
                .expectStatus()
                .isBadRequest()
                .expectBody()
                .jsonPath("$.code")
                .isEqualTo("invalid_request");
    }

    @Test
    void answersAnOversizedBodyWith413() {
        String huge = "{\"name\":\"" + "x".repeat(100_000) + "\",\"count\":1}";
        postJson("/greetings", huge)
                .expectStatus()
                .isEqualTo(413)
                .expectBody()
                .jsonPath("$.code")
                .isEqualTo("payload_too_large");
    }

    @Test
    void keepsDecimalsExactAndPlain() {
        postJson("/echo", "{\"a\":0.1,\"b\":0.0000001,\"c\":12345678901234567890.123456789012345678}")
                .expectStatus()
                .isOk()
                .expectBody(String.class)
                .isEqualTo("{\"a\":0.1,\"b\":0.0000001,\"c\":12345678901234567890.123456789012345678}");
    }

    @Test
    void refusesAJsonBodyWithADuplicateKey() {
        postJson("/echo", "{\"a\":1,\"a\":2}")
                .expectStatus()
                .isBadRequest()
                .expectBody()
                .jsonPath("$.code")
                .isEqualTo("invalid_request");
    }

    @Test
    void rendersAnApiExceptionWithItsStatusAndCode() {
        asMerchant("GET", "/conflict")
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
        asMerchant("GET", "/boom")
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
        asMerchant("GET", "/nowhere")
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
