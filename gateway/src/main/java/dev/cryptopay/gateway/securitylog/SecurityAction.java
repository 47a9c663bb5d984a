package dev.cryptopay.gateway.securitylog;

import java.util.Optional;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.springframework.http.HttpMethod;

/** What a security log entry says happened; the wire name is the entry's {@code action}. */
public enum SecurityAction {
    API_KEY_CREATED("api_key.created"),
    API_KEY_REVOKED("api_key.revoked"),
    API_KEY_FIRST_USED("api_key.first_used"),
    PUBLISHABLE_KEY_REVOKED("publishable_key.revoked"),
    RECEIVING_KEY_CHANGED("receiving_key.changed"),
    WEBHOOK_ENDPOINT_CREATED("webhook_endpoint.created"),
    WEBHOOK_ENDPOINT_DELETED("webhook_endpoint.deleted"),
    WEBHOOK_ENDPOINT_ENABLED("webhook_endpoint.enabled"),
    WEBHOOK_ENDPOINT_SECRET_ROTATED("webhook_endpoint.secret_rotated"),
    PRODUCTION_ACCESS_REQUESTED("production_access.requested");

    private static final String UUID_TEXT =
            "([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})";
    private static final Pattern ENDPOINT = Pattern.compile("/webhook-endpoints/" + UUID_TEXT);
    private static final Pattern ENDPOINT_ACTION =
            Pattern.compile("/webhook-endpoints/" + UUID_TEXT + "/(enable|rotate-secret)");

    private final String wireName;

    SecurityAction(String wireName) {
        this.wireName = wireName;
    }

    public String wireName() {
        return wireName;
    }

    /** The action by its wire name; {@link IllegalArgumentException} for any other text. */
    public static SecurityAction fromWireName(String wireName) {
        for (SecurityAction action : values()) {
            if (action.wireName.equals(wireName)) {
                return action;
            }
        }
        throw new IllegalArgumentException("unknown security action " + wireName);
    }

    /** An action and the id it is about (null when the path names none). */
    public record Recognised(SecurityAction action, UUID targetId) {}

    /**
     * The action a signed request that succeeded performed, by its method and path (without {@code /api/v1}); empty
     * for a request that changes nothing the log follows. Key revocations are told apart (API or publishable key) by
     * the route answering them, not here.
     */
    public static Optional<Recognised> of(HttpMethod method, String relativePath) {
        if (HttpMethod.PUT.equals(method) && relativePath.equals("/payment_links/receiving_key")) {
            return Optional.of(new Recognised(RECEIVING_KEY_CHANGED, null));
        }
        if (HttpMethod.POST.equals(method) && relativePath.equals("/webhook-endpoints")) {
            return Optional.of(new Recognised(WEBHOOK_ENDPOINT_CREATED, null));
        }
        if (HttpMethod.POST.equals(method) && relativePath.equals("/account/production_access")) {
            return Optional.of(new Recognised(PRODUCTION_ACCESS_REQUESTED, null));
        }
        if (HttpMethod.DELETE.equals(method)) {
            Matcher endpoint = ENDPOINT.matcher(relativePath);
            if (endpoint.matches()) {
                return Optional.of(new Recognised(WEBHOOK_ENDPOINT_DELETED, UUID.fromString(endpoint.group(1))));
            }
        }
        if (HttpMethod.POST.equals(method)) {
            Matcher action = ENDPOINT_ACTION.matcher(relativePath);
            if (action.matches()) {
                return Optional.of(new Recognised(
                        action.group(2).equals("enable") ? WEBHOOK_ENDPOINT_ENABLED : WEBHOOK_ENDPOINT_SECRET_ROTATED,
                        UUID.fromString(action.group(1))));
            }
        }
        return Optional.empty();
    }
}
