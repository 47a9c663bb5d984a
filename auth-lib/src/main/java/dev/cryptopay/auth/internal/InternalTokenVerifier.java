package dev.cryptopay.auth.internal;

import dev.cryptopay.auth.keys.KeyAlgorithm;
import dev.cryptopay.auth.keys.VerificationKey;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Checks internal tokens ({@link InternalTokenSigner}) on the receiving side. It holds the public keys of the callers
 * the service accepts, so it can check their tokens but never make one, and its own service id, so a token made for
 * another service is {@link InternalTokenOutcome#WRONG_AUDIENCE}. A caller may have two keys while it changes its key
 * (rotation): a token signed with either is valid. Which caller may use which route is the service's decision, made
 * after a token is valid. Thread-safe.
 */
public final class InternalTokenVerifier {

    /** Keys a caller may have at once: its key and, during a rotation, the next one. */
    public static final int MAX_KEYS_PER_CALLER = 2;

    private static final Pattern FORMAT = Pattern.compile(
            "v3\\.([a-z][a-z0-9-]{0,31})\\.([a-z][a-z0-9-]{0,31})\\.(0|[1-9][0-9]{0,17})\\.([A-Za-z0-9_-]{86})");
    private static final int SIGNATURE_BYTES = 64;

    private final String audience;
    private final Map<String, List<VerificationKey>> callers = new LinkedHashMap<>();

    /**
     * @param audience   this service's id: the only audience accepted
     * @param callerKeys one or two Ed25519 public keys per accepted caller (the map may be empty: then every token is
     *                   refused)
     * @throws IllegalArgumentException for a malformed id, a caller without keys or with more than two, a key that is
     *                                  not Ed25519, or one key given to two callers (either could then sign as the
     *                                  other)
     */
    public InternalTokenVerifier(String audience, Map<String, List<VerificationKey>> callerKeys) {
        this.audience = InternalCallers.requireWellFormed(audience);
        Map<VerificationKey, String> owners = new HashMap<>();
        callerKeys.forEach((caller, keys) -> {
            InternalCallers.requireWellFormed(caller);
            if (keys.isEmpty() || keys.size() > MAX_KEYS_PER_CALLER) {
                throw new IllegalArgumentException("Internal caller " + caller + " needs one or " + MAX_KEYS_PER_CALLER
                        + " public keys, got " + keys.size());
            }
            for (VerificationKey key : keys) {
                if (key.algorithm() != KeyAlgorithm.ED25519) {
                    throw new IllegalArgumentException(
                            "The public keys of internal caller " + caller + " must be Ed25519");
                }
                String other = owners.putIfAbsent(key, caller);
                if (other != null && !other.equals(caller)) {
                    throw new IllegalArgumentException(
                            "Internal callers " + other + " and " + caller + " share a public key");
                }
            }
            callers.put(caller, List.copyOf(keys));
        });
    }

    /** This service's id, the audience its tokens must name. */
    public String audience() {
        return audience;
    }

    /** The callers whose tokens this verifier can check. */
    public Set<String> callers() {
        return Set.copyOf(callers.keySet());
    }

    /**
     * What can be judged without the request: form, caller, audience and freshness. A receiver runs this before
     * reading a body, so a request without a usable token costs nothing; {@code VALID} here means only "worth
     * checking the signature".
     */
    public InternalTokenVerification precheck(String token, Instant now, Duration maxAge) {
        return parse(token, now, maxAge).verification();
    }

    /**
     * Checks a token against the identity and the request the receiving service sees.
     *
     * @param token      the {@link InternalHeaders#INTERNAL_AUTH} header value
     * @param identity   the identity from the merchant headers, or {@code null} if none were sent
     * @param credential the credential header's value, or {@code null} if none was sent
     * @param request    the request as received (raw path and query, hash of the body bytes)
     * @param maxAge     maximum age (inclusive), usually {@link InternalTokenSigner#DEFAULT_MAX_AGE}
     */
    public InternalTokenVerification verify(
            String token,
            MerchantIdentity identity,
            MerchantCredential credential,
            InternalRequest request,
            Instant now,
            Duration maxAge) {
        Objects.requireNonNull(request, "request");
        Parsed parsed = parse(token, now, maxAge);
        if (!parsed.verification().isValid()) {
            return parsed.verification();
        }
        byte[] signed = InternalTokenSigner.signedBytes(
                parsed.caller(), audience, identity, credential, request, parsed.issuedAtSeconds());
        for (VerificationKey key : callers.get(parsed.caller())) {
            if (key.verify(signed, parsed.signature())) {
                return parsed.verification();
            }
        }
        return new InternalTokenVerification(InternalTokenOutcome.BAD_SIGNATURE, parsed.caller());
    }

    /** A token read as far as it could be; {@code verification} is VALID when only the signature is left to check. */
    private record Parsed(
            InternalTokenVerification verification, String caller, long issuedAtSeconds, byte[] signature) {

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
        long issuedAtSeconds = Long.parseLong(matcher.group(3));
        byte[] signature;
        try {
            signature = Base64.getUrlDecoder().decode(matcher.group(4));
        } catch (IllegalArgumentException e) {
            return Parsed.refused(InternalTokenOutcome.MALFORMED, caller);
        }
        if (signature.length != SIGNATURE_BYTES) {
            return Parsed.refused(InternalTokenOutcome.MALFORMED, caller);
        }
        if (!callers.containsKey(caller)) {
            return Parsed.refused(InternalTokenOutcome.UNKNOWN_CALLER, caller);
        }
        if (!audience.equals(matcher.group(2))) {
            return Parsed.refused(InternalTokenOutcome.WRONG_AUDIENCE, caller);
        }
        long ageSeconds = now.getEpochSecond() - issuedAtSeconds;
        if (ageSeconds > maxAge.getSeconds()) {
            return Parsed.refused(InternalTokenOutcome.EXPIRED, caller);
        }
        if (-ageSeconds > InternalTokenSigner.MAX_FUTURE_SKEW.getSeconds()) {
            return Parsed.refused(InternalTokenOutcome.NOT_YET_VALID, caller);
        }
        return new Parsed(
                new InternalTokenVerification(InternalTokenOutcome.VALID, caller), caller, issuedAtSeconds, signature);
    }
}
