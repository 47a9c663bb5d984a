package dev.cryptopay.gateway.routing;

import static org.springframework.cloud.gateway.support.RouteMetadataUtils.CONNECT_TIMEOUT_ATTR;
import static org.springframework.cloud.gateway.support.RouteMetadataUtils.RESPONSE_TIMEOUT_ATTR;

import dev.cryptopay.auth.internal.InternalCallers;
import dev.cryptopay.gateway.keys.KeyScope;
import org.springframework.cloud.gateway.filter.GatewayFilter;
import org.springframework.cloud.gateway.route.Route;
import org.springframework.cloud.gateway.route.RouteLocator;
import org.springframework.cloud.gateway.route.builder.BooleanSpec;
import org.springframework.cloud.gateway.route.builder.Buildable;
import org.springframework.cloud.gateway.route.builder.RouteLocatorBuilder;
import org.springframework.cloud.gateway.route.builder.UriSpec;
import org.springframework.http.HttpMethod;

/**
 * The routes. Only these paths are forwarded: the merchant API under {@code /api/v1} (stripped on the way) and the
 * customers' pages (forwarded unchanged): the subscribe page {@code /checkout/subscribe}, {@code
 * /checkout/subscribe/**} to subscriptions-service and the rest of {@code /checkout/**} (the payment checkout) to
 * payment-links-service. The gateway answers some routes itself ({@link OwnRoutes}: the account, the merchant's keys
 * and production access, sign-up when it is on). A service's {@code /internal/**} and {@code /actuator/**} are
 * unreachable from outside; anything else is a 404 problem.
 */
public final class GatewayRoutes {

    public static final String ACCOUNT = "account";
    public static final String ACCOUNT_KEYS = "account-keys";
    public static final String ACCOUNT_KEY = "account-key";
    public static final String PRODUCTION_ACCESS = "production-access";
    public static final String SECURITY_EVENTS = "security-events";
    public static final String SIGNUP = "signup";
    public static final String PAYMENT_LINKS = "payment-links";
    public static final String SUBSCRIPTIONS = "subscriptions";
    public static final String PUBLIC_LINK_PAYMENT = "public-link-payment";
    public static final String PUBLIC = "public";
    public static final String WEBHOOKS = "webhooks";
    public static final String NOTIFICATIONS = "notifications";
    public static final String CHECKOUT = "checkout";
    public static final String SUBSCRIBE_CHECKOUT = "subscribe-checkout";

    /** The customer checkout's prefix; outside the merchant API, so it is forwarded as it is. */
    public static final String CHECKOUT_PATH = "/checkout";

    /** The customer's subscribe page (subscription_link_url), its status, events, assets and enrolment. */
    public static final String SUBSCRIBE_PATH = CHECKOUT_PATH + "/subscribe";

    private static final String ACCOUNT_PATH = GatewayAttributes.BASE_PATH + "/account";

    private GatewayRoutes() {}

    /**
     * The filters that answer the gateway's own routes (each an {@link AnsweringFilter} of another package).
     *
     * @param account          {@code GET /account}
     * @param accountKeys      {@code GET} and {@code POST /account/keys}, {@code DELETE /account/keys/{id}}
     * @param productionAccess {@code GET} and {@code POST /account/production_access}
     * @param securityEvents   {@code GET /account/security_events}
     * @param signup           {@code POST /signup}; null when sign-up is off, and the route does not exist
     */
    public record OwnRoutes(
            GatewayFilter account,
            GatewayFilter accountKeys,
            GatewayFilter productionAccess,
            GatewayFilter securityEvents,
            GatewayFilter signup) {}

    public static RouteLocator routes(RouteLocatorBuilder builder, UpstreamProperties upstreams, OwnRoutes own) {
        String base = GatewayAttributes.BASE_PATH;
        Forwarding forwarding = new Forwarding(upstreams);
        RouteLocatorBuilder.Builder routes = builder.routes()
                // Answered by the gateway itself: the "no://op" URI is never called, the route's filter responds.
                .route(ACCOUNT, r -> answered(r.order(0).path(ACCOUNT_PATH), own.account(), null, HttpMethod.GET))
                .route(
                        ACCOUNT_KEYS,
                        r -> answered(
                                r.order(0).path(ACCOUNT_PATH + "/keys"),
                                own.accountKeys(),
                                KeyScope.ACCOUNT,
                                HttpMethod.GET,
                                HttpMethod.POST))
                .route(
                        ACCOUNT_KEY,
                        r -> answered(
                                r.order(0).path(ACCOUNT_PATH + "/keys/{id}"),
                                own.accountKeys(),
                                KeyScope.ACCOUNT,
                                HttpMethod.DELETE))
                .route(
                        PRODUCTION_ACCESS,
                        r -> answered(
                                r.order(0).path(ACCOUNT_PATH + "/production_access"),
                                own.productionAccess(),
                                KeyScope.ACCOUNT,
                                HttpMethod.GET,
                                HttpMethod.POST))
                .route(
                        SECURITY_EVENTS,
                        r -> answered(
                                r.order(0).path(ACCOUNT_PATH + "/security_events"),
                                own.securityEvents(),
                                KeyScope.ACCOUNT,
                                HttpMethod.GET))
                // More specific than PUBLIC, so it is matched first.
                .route(
                        PUBLIC_LINK_PAYMENT,
                        r -> forwarding.to(
                                r.order(1)
                                        .path(base + "/public/subscriptions/link/payment")
                                        .and()
                                        .method(HttpMethod.POST),
                                RouteAccess.MERCHANT_KEY,
                                InternalCallers.SUBSCRIPTIONS_SERVICE))
                .route(
                        PUBLIC,
                        r -> forwarding.to(
                                r.order(2).path(base + "/public/**"),
                                RouteAccess.PUBLIC,
                                InternalCallers.SUBSCRIPTIONS_SERVICE))
                .route(
                        PAYMENT_LINKS,
                        r -> forwarding.signed(
                                r.order(3).path(base + "/payment_links", base + "/payment_links/**"),
                                KeyScope.PAYMENT_LINKS,
                                InternalCallers.PAYMENT_LINKS_SERVICE))
                .route(
                        SUBSCRIPTIONS,
                        r -> forwarding.signed(
                                r.order(4)
                                        .path(
                                                base + "/subscriptions",
                                                base + "/subscriptions/**",
                                                base + "/subscriber",
                                                base + "/subscriber/**",
                                                base + "/invitations",
                                                base + "/invitations/**"),
                                KeyScope.SUBSCRIPTIONS,
                                InternalCallers.SUBSCRIPTIONS_SERVICE))
                .route(
                        WEBHOOKS,
                        r -> forwarding.signed(
                                r.order(5)
                                        .path(
                                                base + "/webhook-endpoints",
                                                base + "/webhook-endpoints/**",
                                                base + "/webhook-deliveries",
                                                base + "/webhook-deliveries/**",
                                                base + "/events",
                                                base + "/events/**"),
                                KeyScope.WEBHOOKS,
                                InternalCallers.WEBHOOK_SERVICE))
                // The merchant's e-mail settings and e-mail log: account settings, so the account scope.
                .route(
                        NOTIFICATIONS,
                        r -> forwarding.signed(
                                r.order(5).path(base + "/notifications", base + "/notifications/**"),
                                KeyScope.ACCOUNT,
                                InternalCallers.NOTIFICATION_SERVICE))
                // The customer's subscribe page: public, path unchanged. Before the checkout, which would match it too.
                .route(
                        SUBSCRIBE_CHECKOUT,
                        r -> forwarding.unchanged(
                                r.order(6).path(SUBSCRIBE_PATH, SUBSCRIBE_PATH + "/**"),
                                RouteAccess.PUBLIC,
                                InternalCallers.SUBSCRIPTIONS_SERVICE))
                // The customer's checkout page, its status and assets: public, path unchanged.
                .route(
                        CHECKOUT,
                        r -> forwarding.unchanged(
                                r.order(7).path(CHECKOUT_PATH + "/**"),
                                RouteAccess.PUBLIC,
                                InternalCallers.PAYMENT_LINKS_SERVICE));
        if (own.signup() != null) {
            routes.route(
                    SIGNUP,
                    r -> r.order(0)
                            .path(base + "/signup")
                            .and()
                            .method(HttpMethod.POST)
                            .filters(f -> f.filter(own.signup()))
                            .metadata(RouteAccess.METADATA_KEY, RouteAccess.PUBLIC)
                            .uri("no://op"));
        }
        return routes.build();
    }

    /**
     * A signed route the gateway answers itself with {@code filter}, for these methods only, needing {@code scope}
     * (null: any key).
     */
    private static Buildable<Route> answered(
            BooleanSpec path, GatewayFilter filter, KeyScope scope, HttpMethod... methods) {
        UriSpec spec = path.and()
                .method(methods)
                .filters(f -> f.filter(filter))
                .metadata(RouteAccess.METADATA_KEY, RouteAccess.SIGNED);
        return (scope == null ? spec : spec.metadata(RouteScopes.METADATA_KEY, scope)).uri("no://op");
    }

    /**
     * What every forwarded route shares: its access rule, the service it reaches (its address and the audience of its
     * internal tokens, {@link RouteAudience}) and the upstream timeouts; merchant API routes also have {@code /api/v1}
     * stripped.
     */
    private record Forwarding(UpstreamProperties upstreams) {

        Buildable<Route> to(BooleanSpec predicates, RouteAccess access, String service) {
            return settings(predicates.filters(f -> f.stripPrefix(2)), access, service);
        }

        /** A merchant API route signed with a key that has {@code scope} ({@link RouteScopes}). */
        Buildable<Route> signed(BooleanSpec predicates, KeyScope scope, String service) {
            return settings(
                    predicates.filters(f -> f.stripPrefix(2)).metadata(RouteScopes.METADATA_KEY, scope),
                    RouteAccess.SIGNED,
                    service);
        }

        /** A route outside {@code /api/v1}: the service receives the path as requested. */
        Buildable<Route> unchanged(BooleanSpec predicates, RouteAccess access, String service) {
            return settings(predicates, access, service);
        }

        private Buildable<Route> settings(UriSpec spec, RouteAccess access, String service) {
            return spec.metadata(RouteAccess.METADATA_KEY, access)
                    .metadata(RouteAudience.METADATA_KEY, service)
                    .metadata(CONNECT_TIMEOUT_ATTR, (int)
                            upstreams.connectTimeout().toMillis())
                    .metadata(RESPONSE_TIMEOUT_ATTR, upstreams.responseTimeout().toMillis())
                    .uri(upstreams.of(service));
        }
    }
}
