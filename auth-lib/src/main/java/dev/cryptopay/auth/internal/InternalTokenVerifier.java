package dev.cryptopay.auth.internal;

import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Checks {@link InternalIdentityToken}s on the receiving side, holding the secret of every caller the service accepts
 * and nothing else: a token naming another caller is {@link InternalTokenOutcome#UNKNOWN_CALLER}. Which caller may
 * use which route is the service's decision, made after a token is valid. Thread-safe.
 */
public final class InternalTokenVerifier {

    private static final Pattern FORMAT =
            Pattern.compile("v2\\.([a-z][a-z0-9-]{0,31})\\.(0|[1-9][0-9]{0,17})\\.([A-Za-z0-9_-]{43})");
    private static final int MAC_BYTES = 32;

    private final Map<String, InternalIdentityToken> callers = new LinkedHashMap<>();

    /**
     * @param keys one per accepted caller (may be empty: then every token is refused)
     * @throws IllegalArgumentException if two keys are for the same caller
     */
    public InternalTokenVerifier(Collection<InternalIdentityToken> keys) {
        for (InternalIdentityToken key : keys) {
            if (callers.putIfAbsent(key.caller(), key) != null) {
                throw new IllegalArgumentException("Two secrets for internal caller " + key.caller());
            }
        }
    }

    /** The callers whose tokens this verifier can check. */
    public Set<String> callers() {
        return Set.copyOf(callers.keySet());
    }

    /**
     * What can be judged without the request: form, caller and freshness. A receiver runs this before reading a body,
     * so a request without a usable token costs nothing; {@code VALID} here means only "worth checking the MAC".
     */
    public InternalTokenVerification precheck(String token, Instant now, Duration maxAge) {
        return parse(token, now, maxAge).verification();
    }

    /**
     * Checks a token against the identity and the request the receiving service sees.
     *
     * @param token    the {@link InternalHeaders#INTERNAL_AUTH} header value
     * @param identity the identity from the merchant headers, or {@code null} if none were sent
     * @param request  the request as received (raw path and query, hash of the body bytes)
     * @param maxAge   maximum age (inclusive), usually {@link InternalIdentityToken#DEFAULT_MAX_AGE}
     */
    public InternalTokenVerification verify(
            String token, MerchantIdentity identity, InternalRequest request, Instant now, Duration maxAge) {
        Objects.requireNonNull(request, "request");
        Parsed parsed = parse(token, now, maxAge);
        if (!parsed.verification().isValid()) {
            return parsed.verification();
        }
        byte[] expected = callers.get(parsed.caller()).mac(identity, request, parsed.issuedAtSeconds());
        return MessageDigest.isEqual(expected, parsed.mac())
                ? parsed.verification()
                : new InternalTokenVerification(InternalTokenOutcome.BAD_MAC, parsed.caller());
    }

    /** A token read as far as it could be; {@code verification} is VALID when only the MAC is left to check. */
    private record Parsed(InternalTokenVerification verification, String caller, long issuedAtSeconds, byte[] mac) {

        static Parsed refused(InternalTokenOutcome outcome, String caller) {
            return new Parsed(new InternalTokenVerification(outcome, caller), caller, 0, null);
        }
    }

    private Parsed parse(String token, Instant now, Duration maxAge) {
        Objects.requireNonNull(now, "now");
        Objects.requireNonNull(maxAge, "maxAge");
        if (token == null || token.isBlank()) {
            return Parsed.refused(InternalTokenOutcome.MISSING, null);
        }
        Matcher matcher = FORMAT.matcher(token);
        if (!matcher.matches()) {
            return Parsed.refused(InternalTokenOutcome.MALFORMED, null);
        }
        String caller = matcher.group(1);
        long issuedAtSeconds = Long.parseLong(matcher.group(2));
        byte[] mac;
        try {
            mac = Base64.getUrlDecoder().decode(matcher.group(3));
        } catch (IllegalArgumentException e) {
            return Parsed.refused(InternalTokenOutcome.MALFORMED, caller);
        }
        if (mac.length != MAC_BYTES) {
            return Parsed.refused(InternalTokenOutcome.MALFORMED, caller);
        }
        if (!callers.containsKey(caller)) {
            return Parsed.refused(InternalTokenOutcome.UNKNOWN_CALLER, caller);
        }
        long ageSeconds = now.getEpochSecond() - issuedAtSeconds;
        if (ageSeconds > maxAge.getSeconds()) {
            return Parsed.refused(InternalTokenOutcome.EXPIRED, caller);
        }
        if (-ageSeconds > InternalIdentityToken.MAX_FUTURE_SKEW.getSeconds()) {
            return Parsed.refused(InternalTokenOutcome.NOT_YET_VALID, caller);
        }
        return new Parsed(
                new InternalTokenVerification(InternalTokenOutcome.VALID, caller), caller, issuedAtSeconds, mac);
    }
}
