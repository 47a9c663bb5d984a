package dev.cryptopay.auth.internal;

import java.util.regex.Pattern;

/**
 * The internal callers, who sign internal tokens ({@link InternalTokenSigner}), and the services that receive them
 * (a token's audience). Each caller has a key pair of its own, so a service can tell the gateway's forwarded merchant
 * requests from the chain watcher's reports, and a route can accept one and refuse the other; each token names the
 * one service it is for, so a receiver cannot pass a token it was sent on to another.
 */
public final class InternalCallers {

    /** The gateway, forwarding merchant and public requests. */
    public static final String GATEWAY = "gateway";
    /** The chain watcher, reporting transactions to payment-links-service. */
    public static final String CHAIN_WATCHER = "chain-watcher";

    /** payment-links-service: receives the gateway's forwarded requests and the chain watcher's transfer reports. */
    public static final String PAYMENT_LINKS_SERVICE = "payment-links-service";
    /** subscriptions-service: receives the gateway's forwarded requests and the chain watcher's logs and questions. */
    public static final String SUBSCRIPTIONS_SERVICE = "subscriptions-service";
    /** webhook-service: receives the gateway's forwarded requests. */
    public static final String WEBHOOK_SERVICE = "webhook-service";
    /** notification-service: receives the gateway's forwarded requests (e-mail settings and log). */
    public static final String NOTIFICATION_SERVICE = "notification-service";

    private static final Pattern ID = Pattern.compile("[a-z][a-z0-9-]{0,31}");

    private InternalCallers() {}

    /** Whether {@code id} is a well-formed caller or service id: lower-case letters, digits and dashes, 1 to 32 characters. */
    public static boolean isWellFormed(String id) {
        return id != null && ID.matcher(id).matches();
    }

    static String requireWellFormed(String id) {
        if (!isWellFormed(id)) {
            throw new IllegalArgumentException(
                    "Caller and service ids must be 1-32 characters a-z, 0-9 and '-', starting with a letter: " + id);
        }
        return id;
    }
}
