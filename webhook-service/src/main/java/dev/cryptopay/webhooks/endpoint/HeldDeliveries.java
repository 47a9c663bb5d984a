package dev.cryptopay.webhooks.endpoint;

import java.time.Instant;
import java.util.UUID;
import reactor.core.publisher.Mono;

/**
 * What enabling an endpoint asks of the deliveries: the ones held back while it was disabled start a fresh schedule.
 * Declared here and implemented by the delivery feature, so endpoints never depend on how deliveries are stored.
 */
public interface HeldDeliveries {

    /** Gives the endpoint's waiting deliveries a fresh schedule from {@code now}; answers how many. */
    Mono<Long> resumeHeld(UUID endpointId, Instant now);
}
