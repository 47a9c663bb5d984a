package dev.cryptopay.service.production;

import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Secret values that ship in this repository (docker-compose.yml's defaults, the secret.env.example placeholders, the
 * tests' fixed secrets) and so are known to anyone: the production profile refuses each of them. Add a value here
 * whenever a new development or test secret is committed.
 */
public final class DevelopmentSecrets {

    /** Exact values committed in the repository. */
    static final Set<String> KNOWN = Set.of(
            // docker-compose.yml defaults
            "dev-only-internal-auth-secret-not-for-production",
            "dev-only-chain-watcher-internal-auth-secret-not-for-production",
            "dev-only-admin-token-change-me",
            "ZGV2LW9ubHktTk9ULVNFQ1JFVC13ZWJob29rLWtleSE=",
            // test code (gateway TestEnvironment, test-support, service tests)
            "test-internal-auth-secret-0123456789-abcdefghij",
            "test-admin-token-0123456789-abcdefghij",
            "test-only-internal-secret-0123456789",
            "test-only-chain-watcher-secret-0123456789",
            "test-secret-that-is-at-least-32-bytes-long",
            "test-chain-watcher-secret-at-least-32-bytes-long",
            "service-test-internal-secret-of-32-bytes-or-more",
            "service-test-chain-watcher-secret-of-32-bytes-or-more",
            "database-restart-test-secret-of-32-bytes-or-more",
            "broker-outage-test-secret-of-32-bytes-or-more",
            "internal-secret",
            "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=");

    /**
     * Markers of a made-up value: the dev defaults' {@code dev-only-…}/{@code change-me}, the example files' {@code <…>}
     * placeholders, the tests' {@code test-…} secrets.
     */
    static final List<String> MARKERS =
            List.of("dev-only", "not-for-production", "change-me", "changeme", "test-", "-test", "example", "<", ">");

    private DevelopmentSecrets() {}

    /** Whether {@code value} is a committed development/test secret or looks like one. */
    public static boolean isDevelopmentValue(String value) {
        String trimmed = value.strip();
        if (KNOWN.contains(trimmed)) {
            return true;
        }
        String lower = trimmed.toLowerCase(Locale.ROOT);
        return MARKERS.stream().anyMatch(lower::contains);
    }
}
