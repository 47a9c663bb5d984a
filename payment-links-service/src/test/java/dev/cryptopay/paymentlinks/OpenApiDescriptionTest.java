package dev.cryptopay.paymentlinks;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.web.reactive.result.method.annotation.RequestMappingHandlerMapping;
import org.yaml.snakeyaml.Yaml;

/** The OpenAPI description is kept by hand; this test fails as soon as it and the routes disagree. */
class OpenApiDescriptionTest extends PaymentLinksTestBase {

    @Autowired
    @Qualifier("requestMappingHandlerMapping")
    RequestMappingHandlerMapping mappings;

    @Test
    @SuppressWarnings("unchecked")
    void describesExactlyTheRoutesTheServiceServes() throws Exception {
        Map<String, Object> document;
        try (InputStream in = getClass().getResourceAsStream("/openapi/payment-links.yaml")) {
            document = new Yaml().load(in);
        }
        assertThat(document.get("openapi")).isEqualTo("3.1.0");
        Set<String> described = new TreeSet<>();
        Map<String, Map<String, Object>> paths = (Map<String, Map<String, Object>>) document.get("paths");
        paths.forEach((path, operations) -> operations.keySet().stream()
                .filter(key -> !key.equals("parameters"))
                .forEach(method -> described.add(method.toUpperCase() + " " + path)));

        Set<String> served = new TreeSet<>();
        mappings.getHandlerMethods()
                .keySet()
                .forEach(info -> info.getPatternsCondition()
                        .getPatterns()
                        .forEach(pattern -> info.getMethodsCondition()
                                .getMethods()
                                .forEach(method -> served.add(method.name() + " " + pattern.getPatternString()))));

        assertThat(described).isEqualTo(served);
    }
}
