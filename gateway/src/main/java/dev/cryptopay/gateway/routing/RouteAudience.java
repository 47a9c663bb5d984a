package dev.cryptopay.gateway.routing;

import org.springframework.cloud.gateway.route.Route;

/**
 * The service a forwarded route reaches, stored in the route's metadata under {@link #METADATA_KEY}: the audience of
 * the internal token the gateway signs for it, so a token sent to one service is worthless at another.
 */
public final class RouteAudience {

    public static final String METADATA_KEY = "cryptopay.audience";

    private RouteAudience() {}

    /** The service id the route forwards to, or null for a route the gateway answers itself (or not one of ours). */
    public static String of(Route route) {
        if (route == null) {
            return null;
        }
        Object value = route.getMetadata().get(METADATA_KEY);
        return value instanceof String audience ? audience : null;
    }
}
