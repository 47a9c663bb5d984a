package dev.cryptopay.e2e;

import static dev.cryptopay.e2e.SuiteStack.JSON;
import static dev.cryptopay.e2e.SuiteStack.httpGet;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cryptopay.deploy.LocalStack;
import io.swagger.v3.parser.OpenAPIV3Parser;
import io.swagger.v3.parser.core.models.ParseOptions;
import io.swagger.v3.parser.core.models.SwaggerParseResult;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * The one API description, as the gateway of the running suite merges it from its own part and every service's, is
 * valid OpenAPI 3.1 by a standard validator (swagger-parser), complete, and shown by the reference page.
 */
class ApiDescriptionEndToEndTest {

    @Test
    void theMergedDescriptionIsValidOpenApi31AndCoversEveryService() {
        LocalStack stack = SuiteStack.get();
        String root = stack.gatewayUrl();
        HttpResponse<String> response = httpGet(root + "/openapi.json");
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);

        ParseOptions options = new ParseOptions();
        options.setResolve(true);
        SwaggerParseResult parsed = new OpenAPIV3Parser().readContents(response.body(), null, options);
        assertThat(parsed.getMessages()).as("validator messages").isEmpty();
        assertThat(parsed.getOpenAPI().getOpenapi()).isEqualTo("3.1.0");

        JsonNode document = JSON.readTree(response.body());
        assertThat(document.has("x-unavailable-parts"))
                .as("every service's part was read")
                .isFalse();
        List<String> paths = new ArrayList<>(document.path("paths").propertyNames());
        assertThat(paths)
                .contains(
                        "/account",
                        "/payment_links",
                        "/payment_links/currencies",
                        "/checkout/payment_link/status",
                        "/subscriptions/plans/",
                        "/public/subscriptions/link/payment",
                        "/webhook-endpoints",
                        "/webhook-deliveries/{id}/retry")
                .noneMatch(path -> path.startsWith("/internal/"));
        assertThat(document.path("webhooks").size()).as("event payloads").isPositive();
    }

    @Test
    void theReferencePageIsServedWithItsAssets() {
        String root = SuiteStack.get().gatewayUrl();
        HttpResponse<String> page = httpGet(root + "/docs");
        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.body()).contains("/webjars/swagger-ui/swagger-ui-bundle.js");
        assertThat(httpGet(root + "/webjars/swagger-ui/swagger-ui-bundle.js").statusCode())
                .isEqualTo(200);
    }
}
