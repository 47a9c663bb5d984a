package dev.cryptopay.gateway.routing;

import static org.springframework.cloud.gateway.support.RouteMetadataUtils.CONNECT_TIMEOUT_ATTR;
import static org.springframework.cloud.gateway.support.RouteMetadataUtils.RESPONSE_TIMEOUT_ATTR;

import dev.cryptopay.gateway.account.AccountFilter;
import org.springframework.cloud.gateway.route.RouteLocator;
import org.springframework.cloud.gateway.route.builder.RouteLocatorBuilder;
import org.springframework.http.HttpMethod;

/**
 * The merchant-facing routes. Only these paths are forwarded, each with {@code /api/v1} stripped, so a service's
 * {@code /internal/**} and {@code /actuator/**} are unreachable from outside; anything else is a 404 problem.
 */
public final class GatewayRoutes {

    public static final String ACCOUNT = "account";
    public static final String PAYMENT_LINKS = "payment-links";
    public static final String SUBSCRIPTIONS = "subscriptions";
    public static final String PUBLIC_LINK_PAYMENT = "public-link-payment";
    public static final String PUBLIC = "public";
    public static final String WEBHOOKS = "webhooks";

    private static final String ACCOUNT_PATH = GatewayAttributes.BASE_PATH + "/account";

    private GatewayRoutes() {}

    public static RouteLocator routes(
            RouteLocatorBuilder builder, UpstreamProperties upstreams, AccountFilter accountFilter) {
        String base = GatewayAttributes.BASE_PATH;
        long connectMillis = upstreams.connectTimeout().toMillis();
        long responseMillis = upstreams.responseTimeout().toMillis();
        return builder.routes()
                // Answered by the gateway itself; the "no://op" URI is never called because AccountFilter responds.
                .route(
                        ACCOUNT,
                        r -> r.order(0)
                                .path(ACCOUNT_PATH)
                                .and()
                                .method(HttpMethod.GET)
                                .filters(f -> f.filter(accountFilter))
                                .metadata(RouteAccess.METADATA_KEY, RouteAccess.SIGNED)
                                .uri("no://op"))
                // More specific than PUBLIC, so it is matched first.
                .route(
                        PUBLIC_LINK_PAYMENT,
                        r -> r.order(1)
                                .path(base + "/public/subscriptions/link/payment")
                                .and()
                                .method(HttpMethod.POST)
                                .filters(f -> f.stripPrefix(2))
                                .metadata(RouteAccess.METADATA_KEY, RouteAccess.MERCHANT_KEY)
                                .metadata(CONNECT_TIMEOUT_ATTR, (int) connectMillis)
                                .metadata(RESPONSE_TIMEOUT_ATTR, responseMillis)
                                .uri(upstreams.subscriptions()))
                .route(
                        PUBLIC,
                        r -> r.order(2)
                                .path(base + "/public/**")
                                .filters(f -> f.stripPrefix(2))
                                .metadata(RouteAccess.METADATA_KEY, RouteAccess.PUBLIC)
                                .metadata(CONNECT_TIMEOUT_ATTR, (int) connectMillis)
                                .metadata(RESPONSE_TIMEOUT_ATTR, responseMillis)
                                .uri(upstreams.subscriptions()))
                .route(
                        PAYMENT_LINKS,
                        r -> r.order(3)
                                .path(base + "/payment_links", base + "/payment_links/**")
                                .filters(f -> f.stripPrefix(2))
                                .metadata(RouteAccess.METADATA_KEY, RouteAccess.SIGNED)
                                .metadata(CONNECT_TIMEOUT_ATTR, (int) connectMillis)
                                .metadata(RESPONSE_TIMEOUT_ATTR, responseMillis)
                                .uri(upstreams.paymentLinks()))
                .route(
                        SUBSCRIPTIONS,
                        r -> r.order(4)
                                .path(
                                        base + "/subscriptions",
                                        base + "/subscriptions/**",
                                        base + "/subscriber",
                                        base + "/subscriber/**",
                                        base + "/invitations",
                                        base + "/invitations/**")
                                .filters(f -> f.stripPrefix(2))
                                .metadata(RouteAccess.METADATA_KEY, RouteAccess.SIGNED)
                                .metadata(CONNECT_TIMEOUT_ATTR, (int) connectMillis)
                                .metadata(RESPONSE_TIMEOUT_ATTR, responseMillis)
                                .uri(upstreams.subscriptions()))
                .route(
                        WEBHOOKS,
                        r -> r.order(5)
                                .path(
                                        base + "/webhook-endpoints",
                                        base + "/webhook-endpoints/**",
                                        base + "/webhook-deliveries",
                                        base + "/webhook-deliveries/**")
                                .filters(f -> f.stripPrefix(2))
                                .metadata(RouteAccess.METADATA_KEY, RouteAccess.SIGNED)
                                .metadata(CONNECT_TIMEOUT_ATTR, (int) connectMillis)
                                .metadata(RESPONSE_TIMEOUT_ATTR, responseMillis)
                                .uri(upstreams.webhooks()))
                .build();
    }
}
