package dev.cryptopay.gateway.routing;

import java.util.Locale;

/**
 * Refuses request paths that could be read differently by the gateway and a service: dot segments, encoded slashes,
 * dots or backslashes, empty segments and matrix parameters. Without this, {@code /api/v1/payment_links/../internal}
 * could match a merchant route here and reach a service's {@code /internal} endpoint there.
 */
public final class PathGuard {

    private PathGuard() {}

    /** Whether the raw (still percent-encoded) path is unambiguous. */
    public static boolean isSafe(String rawPath) {
        String lower = rawPath.toLowerCase(Locale.ROOT);
        if (lower.contains("%2e")
                || lower.contains("%2f")
                || lower.contains("%5c")
                || lower.contains("%00")
                || lower.contains("\\")
                || lower.contains(";")
                || lower.contains("//")) {
            return false;
        }
        for (String segment : rawPath.split("/", -1)) {
            if (segment.equals(".") || segment.equals("..")) {
                return false;
            }
        }
        return true;
    }
}
