package dev.cryptopay.gateway.apidocs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cryptopay.gateway.support.GatewayTestBase;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import tools.jackson.databind.JsonNode;

/**
 * The description and the reference page, unsigned, from a gateway whose upstreams are echo servers (the merge of
 * the real services' parts is checked end to end, against the running suite).
 */
class ApiDocsTest extends GatewayTestBase {

    @Test
    void theMergedDescriptionIsServedWithoutASignature() {
        JsonNode document = json(client.get()
                .uri("/openapi.json")
                .exchange()
                .expectStatus()
                .isOk()
                .expectHeader()
                .contentType(MediaType.APPLICATION_JSON));

        assertThat(document.path("openapi").asString()).isEqualTo("3.1.0");
        assertThat(document.path("servers").path(0).path("url").asString()).isEqualTo("/api/v1");
        assertThat(document.path("paths")
                        .path("/account")
                        .path("get")
                        .path("operationId")
                        .asString())
                .isEqualTo("getAccount");
        assertThat(document.path("components")
                        .path("securitySchemes")
                        .path("ApiSignature")
                        .path("name")
                        .asString())
                .isEqualTo("X-API-Signature");
    }

    /**
     * The reference page and Swagger UI's files, the stock index included, share the dashboard's origin: no inline or
     * foreign script, no framing, nothing reached but the origin.
     */
    @Test
    void theReferencePageAndSwaggerUiCarryAStrictPolicyAndCannotBeFramed() {
        for (String path : new String[] {
            "/docs",
            "/docs/initializer.js",
            "/webjars/swagger-ui/index.html",
            "/webjars/swagger-ui/swagger-ui-bundle.js"
        }) {
            client.get()
                    .uri(path)
                    .exchange()
                    .expectStatus()
                    .isOk()
                    .expectHeader()
                    .value(
                            "Content-Security-Policy",
                            policy -> assertThat(policy)
                                    .as(path)
                                    .contains("script-src 'self';")
                                    .contains("frame-ancestors 'none'")
                                    .contains("connect-src 'self'")
                                    .doesNotContain("unsafe-eval"))
                    .expectHeader()
                    .valueEquals("X-Frame-Options", "DENY")
                    .expectHeader()
                    .valueEquals("X-Content-Type-Options", "nosniff");
        }
        client.get().uri("/openapi.json").exchange().expectHeader().doesNotExist("X-Frame-Options");
    }

    @Test
    void theReferencePageLoadsSwaggerUiFromTheGatewayItself() {
        String page = client.get()
                .uri("/docs")
                .exchange()
                .expectStatus()
                .isOk()
                .expectHeader()
                .contentTypeCompatibleWith(MediaType.TEXT_HTML)
                .expectBody(String.class)
                .returnResult()
                .getResponseBody();
        assertThat(page).doesNotContain("https://").contains("/docs/initializer.js");

        for (String asset :
                new String[] {"/webjars/swagger-ui/swagger-ui.css", "/webjars/swagger-ui/swagger-ui-bundle.js"}) {
            assertThat(page).contains(asset);
            client.get()
                    .uri(asset)
                    .exchange()
                    .expectStatus()
                    .isOk()
                    .expectHeader()
                    .value(
                            HttpHeaders.CONTENT_LENGTH,
                            length ->
                                    assertThat(Long.parseLong(length)).as(asset).isGreaterThan(10_000));
        }
        assertThat(client.get()
                        .uri("/docs/initializer.js")
                        .exchange()
                        .expectStatus()
                        .isOk()
                        .expectBody(String.class)
                        .returnResult()
                        .getResponseBody())
                .contains("SwaggerUIBundle")
                .contains("url: '/openapi.json'");
    }
}
