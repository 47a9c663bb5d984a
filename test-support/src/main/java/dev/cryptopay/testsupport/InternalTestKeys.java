package dev.cryptopay.testsupport;

import dev.cryptopay.auth.internal.InternalCallers;
import dev.cryptopay.auth.internal.InternalTokenSigner;
import java.util.Map;

/**
 * The internal callers' key pairs of the tests: the gateway's and the chain watcher's, each with the Ed25519 private
 * key it signs with and the public key services under test accept. Committed, so worthless: the production profile
 * refuses them.
 */
public final class InternalTestKeys {

    public static final String GATEWAY_PRIVATE_KEY =
            "Ed25519:MC4CAQAwBQYDK2VwBCIEIMng4EP39qBSiHEWOJkfkWbJjjaq4mxLf/L6N4yovBYY";
    public static final String GATEWAY_PUBLIC_KEY = "MCowBQYDK2VwAyEATOF/9u6dwrxmRybC5/uRmk5INQtjR1AvUgkzfAX9LE0=";
    public static final String CHAIN_WATCHER_PRIVATE_KEY =
            "Ed25519:MC4CAQAwBQYDK2VwBCIEIMdQfkiO7sLghxwsfWSCCXAC8zsq6A4NYzPHjb8ZU3wL";
    public static final String CHAIN_WATCHER_PUBLIC_KEY =
            "MCowBQYDK2VwAyEA7C86LnhejTgNMcTDeLkV5bm9ej1K8J8x25o2mGj4XsY=";

    private InternalTestKeys() {}

    /** Signs as the gateway. */
    public static InternalTokenSigner gateway() {
        return InternalTokenSigner.parse(InternalCallers.GATEWAY, GATEWAY_PRIVATE_KEY);
    }

    /** Signs as the chain watcher. */
    public static InternalTokenSigner chainWatcher() {
        return InternalTokenSigner.parse(InternalCallers.CHAIN_WATCHER, CHAIN_WATCHER_PRIVATE_KEY);
    }

    /**
     * The properties that make a service accept both callers' test keys and, when the chain watcher or the gateway is
     * the application under test, sign with theirs.
     */
    public static Map<String, Object> properties() {
        return Map.of(
                "internal-auth.callers.gateway.public-keys", GATEWAY_PUBLIC_KEY,
                "internal-auth.callers.chain-watcher.public-keys", CHAIN_WATCHER_PUBLIC_KEY,
                "chain-watcher.internal-auth.private-key", CHAIN_WATCHER_PRIVATE_KEY,
                "gateway.internal-auth.private-key", GATEWAY_PRIVATE_KEY);
    }
}
