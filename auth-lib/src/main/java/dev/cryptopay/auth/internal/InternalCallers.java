package dev.cryptopay.auth.internal;

import java.util.regex.Pattern;

/**
 * The internal callers: who signs an {@link InternalIdentityToken}. Each caller has a secret of its own, so a service
 * can tell the gateway's forwarded merchant requests from the chain watcher's reports, and a route can accept one
 * and refuse the other.
 */
public final class InternalCallers {

    /** The gateway, forwarding merchant and public requests. */
    public static final String GATEWAY = "gateway";
    /** The chain watcher, reporting transactions to payment-links-service. */
    public static final String CHAIN_WATCHER = "chain-watcher";

    private static final Pattern ID = Pattern.compile("[a-z][a-z0-9-]{0,31}");

    private InternalCallers() {}

    /** Whether {@code id} is a well-formed caller id: lower-case letters, digits and dashes, 1 to 32 characters. */
    public static boolean isWellFormed(String id) {
        return id != null && ID.matcher(id).matches();
    }

    static String requireWellFormed(String id) {
        if (!isWellFormed(id)) {
            throw new IllegalArgumentException(
                    "Caller id must be 1-32 characters a-z, 0-9 and '-', starting with a letter: " + id);
        }
        return id;
    }
}
