package dev.cryptopay.gateway.dashboard;

import dev.cryptopay.checkoutui.CheckoutHeaders;
import dev.cryptopay.service.error.ApiException;
import java.time.Duration;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.CacheControl;
import org.springframework.http.MediaType;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.RouterFunctions;
import org.springframework.web.reactive.function.server.ServerResponse;
import reactor.core.publisher.Mono;

/**
 * {@code GET /dashboard/**}: the assets under {@code /dashboard/assets/<version>/<name>} (cached for a year,
 * immutable), 404 for any other path under {@code /dashboard/assets/}, and the page for every other path, so deep
 * links ({@code /dashboard/links/<id>}) open the application at that view; the page is never stored
 * ({@code no-store}: it names the current version). Every response under {@code /dashboard}, errors included, carries
 * the customers' pages' security headers (checkout-ui's {@link CheckoutHeaders}: a strict Content-Security-Policy
 * without inline script or style, {@code nosniff}, no referrer, no framing). Public, outside {@code /api/v1}; only in
 * the web application.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.REACTIVE)
public class DashboardConfiguration {

    @Bean
    DashboardAssets dashboardAssets(@Value("${gateway.signup.enabled:false}") boolean signupEnabled) {
        return DashboardAssets.load(signupEnabled);
    }

    @Bean
    CheckoutHeaders dashboardHeaders() {
        return new CheckoutHeaders(DashboardAssets.ROOT);
    }

    @Bean
    RouterFunction<ServerResponse> dashboardRoutes(DashboardAssets dashboard) {
        String root = DashboardAssets.ROOT;
        CacheControl year =
                CacheControl.maxAge(Duration.ofDays(365)).cachePublic().immutable();
        return RouterFunctions.route()
                .GET(
                        root + "/assets/{version}/{name}",
                        request -> dashboard
                                .asset(request.pathVariable("version"), request.pathVariable("name"))
                                .map(asset -> ServerResponse.ok()
                                        .contentType(asset.type())
                                        .cacheControl(year)
                                        .bodyValue(asset.bytes()))
                                .orElseGet(DashboardConfiguration::noSuchAsset))
                .GET(root + "/assets/**", request -> noSuchAsset())
                .GET(root, request -> page(dashboard))
                .GET(root + "/**", request -> page(dashboard))
                .build();
    }

    private static Mono<ServerResponse> page(DashboardAssets dashboard) {
        return ServerResponse.ok()
                .contentType(MediaType.parseMediaType("text/html;charset=utf-8"))
                .cacheControl(CacheControl.noStore())
                .bodyValue(dashboard.page());
    }

    private static Mono<ServerResponse> noSuchAsset() {
        return Mono.error(ApiException.notFound("No such dashboard asset"));
    }
}
