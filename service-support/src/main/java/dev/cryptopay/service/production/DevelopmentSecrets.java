package dev.cryptopay.service.production;

import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Secret values that ship in this repository (docker-compose.yml's defaults, the secret.env.example placeholders, the
 * tests' fixed secrets) and so are known to anyone: the production profile refuses each of them. Add a value here
 * whenever a new development or test secret is committed.
 */
public final class DevelopmentSecrets {

    /** Exact values committed in the repository. */
    static final Set<String> KNOWN = Set.of(
            // docker-compose.yml defaults: the internal callers' development key pairs, the admin token, the webhook
            // secrets' encryption key
            "MC4CAQAwBQYDK2VwBCIEIAiDSnEHJ462rL1uPq1uMk1mcrKmbahJKrTpILuAFnh+",
            "MCowBQYDK2VwAyEA6OEPKN7sJ51jiJ7nTkxgLiYJyJ/uoxaBgaUfXW4bhjI=",
            "MC4CAQAwBQYDK2VwBCIEIIsz1q10CwOC4Qipx3sRMBIKE5vUeKT2DwuIdQDHkozC",
            "MCowBQYDK2VwAyEA2ed1Qjesi63U6lGmasDXv+lg8KpElvzP2Dka5jiU0II=",
            "dev-only-admin-token-change-me",
            "ZGV2LW9ubHktTk9ULVNFQ1JFVC13ZWJob29rLWtleSE=",
            // test code: the internal callers' test key pairs (test-support's InternalTestKeys, auth-lib's tests),
            // the gateway's test admin token, the tests' encryption key
            "MC4CAQAwBQYDK2VwBCIEIMng4EP39qBSiHEWOJkfkWbJjjaq4mxLf/L6N4yovBYY",
            "MCowBQYDK2VwAyEATOF/9u6dwrxmRybC5/uRmk5INQtjR1AvUgkzfAX9LE0=",
            "MC4CAQAwBQYDK2VwBCIEIMdQfkiO7sLghxwsfWSCCXAC8zsq6A4NYzPHjb8ZU3wL",
            "MCowBQYDK2VwAyEA7C86LnhejTgNMcTDeLkV5bm9ej1K8J8x25o2mGj4XsY=",
            "MC4CAQAwBQYDK2VwBCIEIEWSh/Ydklt/hksBlI7+7BWN0W2bxQkfD+kb5OUWoy1C",
            "MCowBQYDK2VwAyEAxdMawYB2W+7FimLpVb6hqFA7hQTsSlHWC7vj5u+8gUg=",
            "test-admin-token-0123456789-abcdefghij",
            "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=");

    private static final Pattern PEM_ARMOUR = Pattern.compile("-----(BEGIN|END) [A-Z ]+-----");

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
        if (KNOWN.contains(trimmed) || KNOWN.contains(keyBody(trimmed))) {
            return true;
        }
        String lower = trimmed.toLowerCase(Locale.ROOT);
        return MARKERS.stream().anyMatch(lower::contains);
    }

    /**
     * A key's Base64 alone, however it was written: without PEM armour, line breaks (real or {@code \\n}) and the
     * {@code Ed25519:} prefix, so a committed key is known in each of its forms.
     */
    static String keyBody(String text) {
        String body = PEM_ARMOUR.matcher(text.replace("\\n", "\n")).replaceAll("");
        if (body.regionMatches(true, 0, "Ed25519:", 0, "Ed25519:".length())) {
            body = body.substring("Ed25519:".length());
        }
        return body.replaceAll("\\s+", "");
    }
}
