package dev.cryptopay.gateway.routing;

import org.springframework.cloud.gateway.route.Route;

/** How a route authenticates its callers; stored in the route's metadata under {@link #METADATA_KEY}. */
public enum RouteAccess {
    /** Signed with the merchant's key ({@code X-API-Key}, {@code X-API-Signature}, {@code X-API-Timestamp}). */
    SIGNED,
    /** No merchant authentication; the services still get an {@code X-Internal-Auth} token without identity. */
    PUBLIC,
    /**
     * Public, but the JSON body names the merchant in {@code merchant_key}: a publishable key ({@code pk_…}) or, for
     * compatibility, an API key ({@code mk_…}), resolved without a signature.
     */
    MERCHANT_KEY;

    public static final String METADATA_KEY = "cryptopay.access";

    /** The access rule of a route, or null for a route that is not one of ours. */
    public static RouteAccess of(Route route) {
        if (route == null) {
            return null;
        }
        Object value = route.getMetadata().get(METADATA_KEY);
        return value instanceof RouteAccess access ? access : null;
    }
}
