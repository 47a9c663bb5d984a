package dev.cryptopay.webhooks.delivery;

import dev.cryptopay.service.events.Transition;
import java.time.Instant;
import java.util.UUID;

/**
 * One event to be delivered to one endpoint, and where its schedule stands. The aggregate owns its moves: each
 * answers a {@link Transition} to the new state and leaves this one untouched, and a move the current status does not
 * allow throws {@link IllegalStateException}. webhook-service publishes no events, so no move emits one; every move
 * changes the delivery. Storing a new state, and guarding against concurrent changes, is the repository's job.
 *
 * @param attempts      every attempt ever made
 * @param cycleAttempts attempts in the current schedule, which a retry or recover starts afresh
 * @param nextAttemptAt when the next attempt is due; null once the delivery is not pending
 */
public record Delivery(
        UUID id,
        UUID eventId,
        UUID endpointId,
        String eventType,
        DeliveryStatus status,
        int attempts,
        int cycleAttempts,
        Instant cycleStartedAt,
        Instant nextAttemptAt,
        Instant lastAttemptAt,
        Integer lastStatusCode,
        String lastError,
        Instant succeededAt,
        Instant createdAt) {

    /** A new delivery of an event to an endpoint, its first attempt due as the schedule says. */
    public static Transition<Delivery> schedule(
            UUID eventId, UUID endpointId, String eventType, RetrySchedule schedule, Instant now) {
        return Transition.to(new Delivery(
                UUID.randomUUID(),
                eventId,
                endpointId,
                eventType,
                DeliveryStatus.PENDING,
                0,
                0,
                now,
                schedule.first(now),
                null,
                null,
                null,
                null,
                now));
    }

    /**
     * The state after an attempt that started at {@code startedAt}: succeeded on a 2xx; otherwise pending until the
     * next attempt the schedule allows (a receiver's Retry-After may push it later), failed once the schedule is
     * exhausted.
     *
     * <p>A schedule counts from its first attempt: when that starts later than planned (the delivery was held while
     * its endpoint was disabled, or waited behind the endpoint's other deliveries), the schedule moves with it, so
     * its retries keep their spacing instead of all falling due at once.
     *
     * @throws IllegalStateException unless pending
     */
    public Transition<Delivery> recordAttempt(
            AttemptResult result, Instant startedAt, RetrySchedule schedule, Instant now) {
        requireStatus(DeliveryStatus.PENDING, "record an attempt");
        Instant cycleStart = cycleStartedAt;
        if (cycleAttempts == 0 && schedule.startOf(startedAt).isAfter(cycleStartedAt)) {
            cycleStart = schedule.startOf(startedAt);
        }
        Instant next =
                result.succeeded() ? null : schedule.next(cycleStart, cycleAttempts + 1, now, result.retryAfter());
        DeliveryStatus newStatus = result.succeeded()
                ? DeliveryStatus.SUCCEEDED
                : next == null ? DeliveryStatus.FAILED : DeliveryStatus.PENDING;
        return Transition.to(new Delivery(
                id,
                eventId,
                endpointId,
                eventType,
                newStatus,
                attempts + 1,
                cycleAttempts + 1,
                cycleStart,
                next,
                startedAt,
                result.statusCode(),
                result.error(),
                result.succeeded() ? now : null,
                createdAt));
    }

    /**
     * Ends a pending delivery without another attempt, e.g. because its endpoint was deleted; it stays recoverable.
     *
     * @throws IllegalStateException unless pending
     */
    public Transition<Delivery> abandon(String reason) {
        requireStatus(DeliveryStatus.PENDING, "abandon it");
        return Transition.to(new Delivery(
                id,
                eventId,
                endpointId,
                eventType,
                DeliveryStatus.FAILED,
                attempts,
                cycleAttempts,
                cycleStartedAt,
                null,
                lastAttemptAt,
                lastStatusCode,
                reason,
                succeededAt,
                createdAt));
    }

    /**
     * A manual retry, allowed in any status: a fresh schedule whose first attempt is due now. The attempt count and
     * the last attempt's details are kept.
     */
    public Transition<Delivery> restart(Instant now) {
        return Transition.to(new Delivery(
                id,
                eventId,
                endpointId,
                eventType,
                DeliveryStatus.PENDING,
                attempts,
                0,
                now,
                now,
                lastAttemptAt,
                lastStatusCode,
                lastError,
                succeededAt,
                createdAt));
    }

    /**
     * Recovery of a failed delivery: the same fresh schedule as {@link #restart}, for failed deliveries only.
     * {@link DeliveryRepository#recoverFailed} applies this rule to many deliveries in one statement.
     *
     * @throws IllegalStateException unless failed
     */
    public Transition<Delivery> recover(Instant now) {
        requireStatus(DeliveryStatus.FAILED, "recover it");
        return restart(now);
    }

    private void requireStatus(DeliveryStatus required, String move) {
        if (status != required) {
            throw new IllegalStateException("Delivery " + id + " is " + status.wireName() + ", so cannot " + move
                    + " (needs " + required.wireName() + ")");
        }
    }
}
