package dev.cryptopay.gateway.routing;

import dev.cryptopay.gateway.keys.KeyScope;
import org.springframework.cloud.gateway.route.Route;
import org.springframework.http.HttpMethod;

/**
 * The scope a signed route needs ({@link KeyScope}), stored in the route's metadata under {@link #METADATA_KEY}; a
 * signed route without one ({@code GET /account}) is open to every key. One path is an exception inside its route:
 * {@code /payment_links/receiving_key} decides where every new link's money goes, so changing it needs
 * {@link KeyScope#ACCOUNT}, not {@link KeyScope#PAYMENT_LINKS} (reading it does not).
 */
public final class RouteScopes {

    public static final String METADATA_KEY = "cryptopay.scope";

    static final String RECEIVING_KEY_PATH = "/payment_links/receiving_key";

    private RouteScopes() {}

    /**
     * The scope a request with {@code method} to {@code relativePath} (without {@code /api/v1}) on the route needs;
     * null: none.
     */
    public static KeyScope required(Route route, HttpMethod method, String relativePath) {
        if (route == null) {
            return null;
        }
        if (relativePath.equals(RECEIVING_KEY_PATH) && !reads(method)) {
            return KeyScope.ACCOUNT;
        }
        Object value = route.getMetadata().get(METADATA_KEY);
        return value instanceof KeyScope scope ? scope : null;
    }

    /** Whether a request with this method only reads, so that {@link KeyScope#READ} is enough. */
    public static boolean reads(HttpMethod method) {
        return HttpMethod.GET.equals(method) || HttpMethod.HEAD.equals(method);
    }
}
