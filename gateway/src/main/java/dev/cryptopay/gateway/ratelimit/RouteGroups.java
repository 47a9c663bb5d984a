package dev.cryptopay.gateway.ratelimit;

import dev.cryptopay.gateway.routing.GatewayRoutes;
import org.springframework.http.HttpMethod;

/** Decides which rate-limit bucket a request is counted in, from its route, method and path. */
public final class RouteGroups {

    private RouteGroups() {}

    /**
     * @param routeId      one of the ids in {@link GatewayRoutes}
     * @param relativePath the path after {@code /api/v1} (the whole path for {@code /checkout/**}, the subscribe page
     *     included)
     */
    public static RouteGroup classify(String routeId, HttpMethod method, String relativePath) {
        boolean read = HttpMethod.GET.equals(method) || HttpMethod.HEAD.equals(method);
        return switch (routeId) {
            case GatewayRoutes.PAYMENT_LINKS -> {
                String path = stripTrailingSlash(relativePath);
                if (path.equals("/payment_links/receiving_key")) {
                    yield RouteGroup.RECEIVING_KEY;
                }
                if (!read) {
                    yield RouteGroup.PAYMENT_LINKS_WRITE;
                }
                yield path.equals("/payment_links/currencies")
                        ? RouteGroup.PAYMENT_LINKS_CURRENCIES
                        : RouteGroup.PAYMENT_LINKS_READ;
            }
            case GatewayRoutes.SUBSCRIPTIONS -> read ? RouteGroup.SUBSCRIPTIONS_READ : RouteGroup.SUBSCRIPTIONS_WRITE;
            case GatewayRoutes.PUBLIC_LINK_PAYMENT -> RouteGroup.PUBLIC_LINK_PAYMENT;
            case GatewayRoutes.PUBLIC -> RouteGroup.PUBLIC;
            case GatewayRoutes.WEBHOOKS -> RouteGroup.WEBHOOKS;
            // The merchant's e-mail settings and log are account settings: the account group and scope.
            case GatewayRoutes.NOTIFICATIONS -> RouteGroup.ACCOUNT;
            case GatewayRoutes.ACCOUNT,
                    GatewayRoutes.ACCOUNT_KEYS,
                    GatewayRoutes.ACCOUNT_KEY,
                    GatewayRoutes.PRODUCTION_ACCESS,
                    GatewayRoutes.SECURITY_EVENTS -> RouteGroup.ACCOUNT;
            case GatewayRoutes.SIGNUP -> RouteGroup.SIGNUP;
            case GatewayRoutes.CHECKOUT, GatewayRoutes.SUBSCRIBE_CHECKOUT -> RouteGroup.CHECKOUT;
            default -> throw new IllegalArgumentException("Unknown route " + routeId);
        };
    }

    private static String stripTrailingSlash(String path) {
        return path.length() > 1 && path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
    }
}
