package dev.cryptopay.webhooks.event;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.time.Instant;
import java.util.List;
import tools.jackson.databind.JsonNode;

/**
 * An event as merchants read it: what its deliveries send ({@code id, type, created_at, data, livemode}), the object
 * it is about, and its deliveries, oldest first. {@code object_id} is omitted when the event names no object.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
record EventResponse(
        String id,
        String type,
        Instant createdAt,
        String objectId,
        JsonNode data,
        boolean livemode,
        List<DeliverySummary> deliveries) {

    /** One delivery of the event; the whole delivery and its attempts are at {@code GET /webhook-deliveries/{id}}. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    record DeliverySummary(
            String id,
            String endpointId,
            String endpointUrl,
            String status,
            int attempts,
            Instant nextAttemptAt,
            Instant lastAttemptAt,
            Integer lastStatusCode,
            Instant createdAt) {

        static DeliverySummary of(EventHistoryRepository.EventDelivery delivery) {
            return new DeliverySummary(
                    delivery.id().toString(),
                    delivery.endpointId().toString(),
                    delivery.endpointUrl(),
                    delivery.status(),
                    delivery.attempts(),
                    "pending".equals(delivery.status()) ? delivery.nextAttemptAt() : null,
                    delivery.lastAttemptAt(),
                    delivery.lastStatusCode(),
                    delivery.createdAt());
        }
    }
}
