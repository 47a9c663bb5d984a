package dev.cryptopay.webhooks.endpoint;

import dev.cryptopay.auth.Mode;
import dev.cryptopay.webhooks.config.WebhookProperties;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Instant;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;

/**
 * Follows each endpoint's recorded attempts and disables one whose every attempt has failed for
 * {@code webhooks.endpoints.disable-after} (5 days), with at least {@code disable-min-failures} (10) failed attempts
 * and no success between. A disabled endpoint's deliveries are held, not lost; the merchant sees why on the
 * endpoint and enables it again through the API. Operators get a WARN line ({@code endpoint_disabled …}) and the
 * counter {@code webhook_endpoints_auto_disabled_total}.
 */
@Component
public class EndpointHealth {

    private static final Logger log = LoggerFactory.getLogger(EndpointHealth.class);

    private final EndpointRepository endpoints;
    private final WebhookProperties.Endpoints settings;
    private final Counter disabledCounter;

    public EndpointHealth(EndpointRepository endpoints, WebhookProperties properties, MeterRegistry meters) {
        this.endpoints = endpoints;
        this.settings = properties.endpoints();
        this.disabledCounter = Counter.builder("webhook.endpoints.auto.disabled")
                .description("Endpoints disabled automatically after failing for days")
                .register(meters);
    }

    /** An endpoint this service has just disabled. */
    public record Disabled(
            UUID endpointId, UUID merchantId, Mode mode, Instant failingSince, int failedAttempts, String reason) {}

    /**
     * Counts a failed attempt into its endpoint's run of failures, within the transaction that records the attempt;
     * answers the endpoint this attempt disabled, if it did. Call {@link #announce} once that transaction has
     * committed. (A success ends the run where the attempt is stored, see DeliveryRepository.saveAttempts.)
     */
    public Mono<Disabled> recordFailure(UUID endpointId, Instant startedAt, Instant now) {
        return endpoints.recordFailure(endpointId, startedAt).flatMap(run -> {
            if (!run.enabled() || !failingLongEnough(run.failingSince(), run.failedAttempts(), now)) {
                return Mono.empty();
            }
            String reason = "Every delivery attempt since " + run.failingSince() + " failed (" + run.failedAttempts()
                    + " attempts in a row); deliveries are held until the endpoint is enabled again";
            return endpoints
                    .disable(endpointId, reason, now)
                    .filter(Boolean::booleanValue)
                    .map(disabled -> new Disabled(
                            endpointId,
                            run.merchantId(),
                            run.mode(),
                            run.failingSince(),
                            run.failedAttempts(),
                            reason));
        });
    }

    /** Whether a run of failures is long enough, in time and in attempts, to disable its endpoint. */
    boolean failingLongEnough(Instant failingSince, int failedAttempts, Instant now) {
        return failedAttempts >= settings.disableMinFailures()
                && !failingSince.plus(settings.disableAfter()).isAfter(now);
    }

    /** The operational event of an automatic disable: a WARN line with its fields and the counter. */
    public void announce(Disabled disabled) {
        disabledCounter.increment();
        log.warn(
                "endpoint_disabled endpoint_id={} merchant_id={} mode={} failing_since={} failed_attempts={} "
                        + "disable_after={}",
                disabled.endpointId(),
                disabled.merchantId(),
                disabled.mode().wireName(),
                disabled.failingSince(),
                disabled.failedAttempts(),
                settings.disableAfter());
    }
}
