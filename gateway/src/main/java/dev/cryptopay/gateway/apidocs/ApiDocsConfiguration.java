package dev.cryptopay.gateway.apidocs;

import dev.cryptopay.gateway.apidocs.ApiDescription.Source;
import dev.cryptopay.gateway.routing.UpstreamProperties;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.util.List;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.CacheControl;
import org.springframework.http.MediaType;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.RouterFunctions;
import org.springframework.web.reactive.function.server.ServerResponse;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code GET /openapi.json} (the merged description), {@code GET /docs} (the reference page: Swagger UI, from the
 * {@code org.webjars:swagger-ui} jar at {@code /webjars/swagger-ui/}, no CDN) and its start-up script. Public, outside
 * {@code /api/v1}: a developer reads them before having a key. Only in the web application, not on the command line.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.REACTIVE)
public class ApiDocsConfiguration {

    @Bean
    ApiDescription apiDescription(UpstreamProperties upstreams, JsonMapper json) {
        return new ApiDescription(
                List.of(
                        new Source("payment-links-service", "PaymentLinks", upstreams.paymentLinks()),
                        new Source("subscriptions-service", "Subscriptions", upstreams.subscriptions()),
                        new Source("webhook-service", "Webhooks", upstreams.webhooks()),
                        new Source("notification-service", "Notifications", upstreams.notifications())),
                json,
                Clock.systemUTC());
    }

    @Bean
    ApiDocsHeaders apiDocsHeaders() {
        return new ApiDocsHeaders();
    }

    @Bean
    RouterFunction<ServerResponse> apiDocsRoutes(ApiDescription description) {
        byte[] page = resource("/apidocs/index.html");
        byte[] script = resource("/apidocs/initializer.js");
        CacheControl revalidate = CacheControl.noCache();
        return RouterFunctions.route()
                .GET(
                        "/openapi.json",
                        request -> description
                                .json()
                                .flatMap(json -> ServerResponse.ok()
                                        .contentType(MediaType.APPLICATION_JSON)
                                        .cacheControl(revalidate)
                                        .header("Access-Control-Allow-Origin", "*")
                                        .bodyValue(json)))
                .GET(
                        "/docs",
                        request -> ServerResponse.ok()
                                .contentType(MediaType.TEXT_HTML)
                                .cacheControl(revalidate)
                                .bodyValue(page))
                .GET(
                        "/docs/initializer.js",
                        request -> ServerResponse.ok()
                                .contentType(MediaType.parseMediaType("text/javascript"))
                                .cacheControl(revalidate)
                                .bodyValue(script))
                .build();
    }

    private static byte[] resource(String path) {
        try (InputStream in = ApiDocsConfiguration.class.getResourceAsStream(path)) {
            if (in == null) {
                throw new IllegalStateException(path + " is missing from the gateway's classpath");
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
