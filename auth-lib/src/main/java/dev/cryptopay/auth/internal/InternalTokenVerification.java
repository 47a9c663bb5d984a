package dev.cryptopay.auth.internal;

import java.util.Objects;

/**
 * What {@link InternalTokenVerifier} found out about a token.
 *
 * @param outcome VALID, or why the token is refused
 * @param caller  the caller the token names (well formed, safe to log), or null when it could not be read
 */
public record InternalTokenVerification(InternalTokenOutcome outcome, String caller) {

    public InternalTokenVerification {
        Objects.requireNonNull(outcome, "outcome");
    }

    public boolean isValid() {
        return outcome == InternalTokenOutcome.VALID;
    }
}
