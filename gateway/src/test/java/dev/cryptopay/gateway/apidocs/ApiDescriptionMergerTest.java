package dev.cryptopay.gateway.apidocs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cryptopay.gateway.apidocs.ApiDescriptionMerger.Part;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ApiDescriptionMergerTest {

    private static final String GATEWAY = """
            openapi: 3.1.0
            info: {title: api, version: 1.0.0, description: The gateway.}
            servers: [{url: /api/v1}]
            security: [{ApiKey: []}]
            paths:
              /account: {get: {responses: {"200": {description: ok}}}}
            components:
              schemas:
                Problem: {type: object, required: [code]}
            """;

    private static final String LINKS = """
            openapi: 3.1.0
            info: {title: payment links, version: 1.0.0, description: Links.}
            servers: [{url: https://elsewhere/api/v1}]
            security: [{ApiKey: [], ApiSignature: []}]
            tags: [{name: links}, {name: internal}]
            paths:
              /payment_links:
                get:
                  tags: [links]
                  responses: {"200": {content: {application/json: {schema: {$ref: '#/components/schemas/Problem'}}}}}
              /checkout/x:
                servers: [{url: "https://elsewhere"}]
                get: {tags: [checkout], security: [], responses: {"200": {description: ok}}}
              /internal/y:
                post: {tags: [internal], responses: {"200": {description: ok}}}
            components:
              schemas:
                Problem: {type: object, required: [code, message]}
                Shared: {type: string}
            webhooks:
              payment_link.paid: {post: {responses: {"200": {description: ok}}}}
            """;

    @Test
    void aPartKeepsItsSecurityLosesItsInternalRoutesAndItsClashingComponentsAreRenamed() {
        Map<String, Object> merged = ApiDescriptionMerger.merge(
                read(GATEWAY), List.of(new Part("payment-links-service", "PaymentLinks", read(LINKS))), List.of());

        Map<String, Object> paths = map(merged.get("paths"));
        assertThat(paths).containsOnlyKeys("/account", "/payment_links", "/checkout/x");
        Map<String, Object> list = map(map(paths.get("/payment_links")).get("get"));
        assertThat(list.get("security")).isEqualTo(List.of(Map.of("ApiKey", List.of(), "ApiSignature", List.of())));
        assertThat(map(map(paths.get("/checkout/x")).get("get")).get("security"))
                .isEqualTo(List.of());
        assertThat(map(paths.get("/checkout/x")).get("servers"))
                .as("the part's own host becomes the gateway serving the document")
                .isEqualTo(List.of(Map.of("url", "/")));
        assertThat(merged.get("security")).as("the gateway's default").isEqualTo(List.of(Map.of("ApiKey", List.of())));
        assertThat(merged.get("servers")).isEqualTo(List.of(Map.of("url", "/api/v1")));

        Map<String, Object> schemas = map(map(merged.get("components")).get("schemas"));
        assertThat(schemas).containsKeys("Problem", "PaymentLinksProblem", "Shared");
        assertThat(map(schemas.get("Problem")).get("required")).isEqualTo(List.of("code"));
        assertThat(String.valueOf(list.get("responses"))).contains("#/components/schemas/PaymentLinksProblem");
        assertThat(map(merged.get("webhooks"))).containsOnlyKeys("payment_link.paid");
        assertThat(String.valueOf(merged.get("tags"))).contains("links").doesNotContain("internal");
        assertThat(String.valueOf(map(merged.get("info")).get("description")))
                .startsWith("The gateway.")
                .contains("## payment links\n\nLinks.");
        assertThat(merged).doesNotContainKey("x-unavailable-parts");
    }

    @Test
    void aComponentTheSameInTwoPartsIsKeptOnceAndAMissingPartIsSaid() {
        String other = LINKS.replace("payment links", "other")
                .replace("/payment_links:", "/others:")
                .replace("/checkout/x:", "/checkout/z:")
                .replace("/internal/y:", "/internal/w:")
                .replace("payment_link.paid", "other.done");
        Map<String, Object> merged = ApiDescriptionMerger.merge(
                read(GATEWAY),
                List.of(new Part("a", "A", read(LINKS)), new Part("b", "B", read(other))),
                List.of("webhook-service"));

        assertThat(map(map(merged.get("components")).get("schemas")))
                .containsOnlyKeys("Problem", "AProblem", "BProblem", "Shared");
        assertThat(merged.get("x-unavailable-parts")).isEqualTo(List.of("webhook-service"));
        assertThat(String.valueOf(map(merged.get("info")).get("description")))
                .startsWith("**Incomplete:** the part of webhook-service could not be read");
    }

    @Test
    void twoPartsDescribingOnePathAreRefused() {
        assertThatThrownBy(() -> ApiDescriptionMerger.merge(
                        read(GATEWAY),
                        List.of(new Part("a", "A", read(LINKS)), new Part("b", "B", read(LINKS))),
                        List.of()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("/payment_links of b is described by another part too");
    }

    private static Map<String, Object> read(String yaml) {
        return PartReader.read(new ByteArrayInputStream(yaml.getBytes(StandardCharsets.UTF_8)));
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Object value) {
        return (Map<String, Object>) value;
    }
}
