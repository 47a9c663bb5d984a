package dev.cryptopay.chainwatcher.keeper;

import java.time.Instant;

/**
 * A subscription the keeper looks after on one chain (a row of {@code keeper_subscription}). Times are chain times.
 *
 * @param active      false once cancelled: not checked again unless {@code stale}
 * @param stale       its state is read again first (a log of it arrived, or a collect of it ended)
 * @param nextDue     getSubscription's nextDue when last read; null before the first read
 * @param nextCheckAt when the keeper looks at it again
 * @param scope       {@code unknown}, {@code kept} or {@code foreign}: whether the platform answers for it, as
 *                    subscriptions-service last said ({@link Scope})
 * @param failures    its collects that failed in a row (would revert, reverted, or only recorded misses)
 * @param givenUpAt   when the keeper gave up on it after {@code give-up-after} failures in a row; null while it
 *                    looks after it
 */
record KeptSubscription(
        long chainId,
        String subscriptionId,
        boolean active,
        boolean stale,
        Instant nextDue,
        Instant nextCheckAt,
        String scope,
        int failures,
        Instant givenUpAt) {}
