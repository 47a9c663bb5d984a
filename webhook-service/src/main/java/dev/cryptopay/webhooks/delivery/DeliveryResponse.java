package dev.cryptopay.webhooks.delivery;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.time.Instant;
import java.util.List;

/**
 * A delivery as merchants read it. Members without a value are omitted; {@code next_attempt_at} only while the
 * delivery is pending; {@code attempt_log} only when one delivery is read.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
record DeliveryResponse(
        String id,
        String eventId,
        String endpointId,
        String eventType,
        String status,
        int attempts,
        Instant nextAttemptAt,
        Instant lastAttemptAt,
        Integer lastStatusCode,
        String lastError,
        Instant succeededAt,
        Instant createdAt,
        List<AttemptResponse> attemptLog) {

    static DeliveryResponse of(Delivery delivery) {
        return of(delivery, null);
    }

    static DeliveryResponse of(Delivery delivery, List<AttemptResponse> attemptLog) {
        return new DeliveryResponse(
                delivery.id().toString(),
                delivery.eventId().toString(),
                delivery.endpointId().toString(),
                delivery.eventType(),
                delivery.status().wireName(),
                delivery.attempts(),
                delivery.status() == DeliveryStatus.PENDING ? delivery.nextAttemptAt() : null,
                delivery.lastAttemptAt(),
                delivery.lastStatusCode(),
                delivery.lastError(),
                delivery.succeededAt(),
                delivery.createdAt(),
                attemptLog);
    }

    /** One attempt of the log. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    record AttemptResponse(
            int attempt,
            Instant startedAt,
            long latencyMs,
            Integer statusCode,
            String outcome,
            String error,
            String responseExcerpt) {

        static AttemptResponse of(DeliveryRepository.Attempt attempt) {
            return new AttemptResponse(
                    attempt.number(),
                    attempt.startedAt(),
                    attempt.latencyMillis(),
                    attempt.statusCode(),
                    attempt.outcome(),
                    attempt.error(),
                    attempt.responseExcerpt());
        }
    }
}
