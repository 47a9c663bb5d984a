package dev.cryptopay.gateway.routing;

import dev.cryptopay.gateway.keys.ResolvedKey;
import org.springframework.web.server.ServerWebExchange;

/** Exchange attributes the gateway's filters hand to each other. */
public final class GatewayAttributes {

    /** The merchants' base path; everything under it is routed with this prefix stripped. */
    public static final String BASE_PATH = "/api/v1";

    /** {@link ResolvedKey} of the authenticated merchant key (or the resolved {@code merchant_key}). */
    public static final String CALLER = GatewayAttributes.class.getName() + ".caller";
    /** Loggable prefix of the presented API key or merchant_key (set as soon as it is well formed). */
    public static final String KEY_PREFIX = GatewayAttributes.class.getName() + ".keyPrefix";
    /**
     * Replay fingerprint of a verified signed request: SHA-256 (hex) over the key id and the canonical request (method,
     * path with query, timestamp, body), set by the signature filter and read by the replay guard.
     */
    public static final String REPLAY_FINGERPRINT = GatewayAttributes.class.getName() + ".replayFingerprint";

    private GatewayAttributes() {}

    public static ResolvedKey caller(ServerWebExchange exchange) {
        return exchange.getAttribute(CALLER);
    }

    /** The request path relative to {@link #BASE_PATH} (raw, as on the request line), e.g. {@code /payment_links}. */
    public static String relativePath(String rawPath) {
        return rawPath.startsWith(BASE_PATH) ? rawPath.substring(BASE_PATH.length()) : rawPath;
    }
}
