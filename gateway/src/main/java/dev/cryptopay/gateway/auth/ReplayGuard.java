package dev.cryptopay.gateway.auth;

import reactor.core.publisher.Mono;

/** Remembers signatures already used for state-changing requests. */
public interface ReplayGuard {

    /**
     * Records {@code fingerprint} and tells whether it is new.
     *
     * @return true the first time within the replay window, false for a replay; an error when the store is unreachable
     */
    Mono<Boolean> firstUse(String fingerprint);
}
