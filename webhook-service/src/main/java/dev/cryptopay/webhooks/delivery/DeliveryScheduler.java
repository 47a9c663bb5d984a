package dev.cryptopay.webhooks.delivery;

import dev.cryptopay.service.background.BackgroundLoop;
import dev.cryptopay.webhooks.config.WebhookProperties;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Keeps this instance's {@code concurrency} delivery slots busy. Each pass (every {@code poll-interval}) and each
 * finished attempt claims due deliveries for the free slots — fairly, within the per-endpoint and per-merchant caps
 * ({@link DeliveryClaims}) — and starts their attempts without waiting for them, so a slow endpoint holds only its
 * own slots while the others keep moving. Nothing is held in memory between attempts: after a crash, claimed
 * deliveries become due again when their lease ends. Attempts still in flight at shutdown end on their own (each is
 * bounded by the attempt timeout); their deliveries are taken again after the lease if their result was not recorded.
 */
@Component
public class DeliveryScheduler extends BackgroundLoop {

    private static final Logger log = LoggerFactory.getLogger(DeliveryScheduler.class);
    private static final Duration IDLE_CHECK = Duration.ofMillis(5);

    private final DeliveryClaims claims;
    private final DeliveryAttempts attempts;
    private final WebhookProperties.Delivery settings;
    private final Clock clock;
    /**
     * Slots taken: attempts in flight, slots of finished attempts waiting to be claimed for, and claims under way.
     * Zero means idle: nothing in flight and nothing about to start.
     */
    private final AtomicInteger inFlight = new AtomicInteger();
    /** Attempts started since this instance began. */
    private final AtomicInteger started = new AtomicInteger();
    /** Slots of finished attempts, handed to the next refill claim (still counted in {@link #inFlight}). */
    private final AtomicInteger handedOver = new AtomicInteger();
    /** Refill requests; one refill claim runs at a time, and again while requests came in meanwhile. */
    private final AtomicInteger refillRequests = new AtomicInteger();

    public DeliveryScheduler(
            DeliveryClaims claims,
            DeliveryAttempts attempts,
            WebhookProperties properties,
            Clock clock,
            MeterRegistry meters) {
        this.claims = claims;
        this.attempts = attempts;
        this.settings = properties.delivery();
        this.clock = clock;
        Gauge.builder("webhook.delivery.in.flight", inFlight, AtomicInteger::get)
                .description("Delivery slots of this instance in use")
                .register(meters);
    }

    /**
     * One pass: claims due deliveries for the free slots and starts their attempts without waiting for them. Answers
     * how many were started.
     */
    public Mono<Integer> startDue() {
        return claimForFreeSlots(0).map(dues -> {
            dues.forEach(this::launch);
            return dues.size();
        });
    }

    /**
     * Attempts everything due now and waits until no attempt is in flight; answers how many attempts were started.
     * Deliveries that wait behind their endpoint's or merchant's cap are taken as slots free up.
     */
    public Mono<Integer> drain() {
        return round().expand(count -> count > 0 ? round() : Mono.empty()).reduce(0, Integer::sum);
    }

    /** Slots of this instance in use (also the gauge {@code webhook_delivery_in_flight}). */
    public int inFlight() {
        return inFlight.get();
    }

    private Mono<Integer> round() {
        return Mono.defer(() -> {
            int before = started.get();
            return startDue().then(idle()).then(Mono.fromSupplier(() -> started.get() - before));
        });
    }

    /** Completes once no slot is in use: no attempt in flight and no claim under way. */
    private Mono<Void> idle() {
        return Flux.interval(Duration.ZERO, IDLE_CHECK)
                .filter(tick -> inFlight.get() == 0)
                .next()
                .then();
    }

    /**
     * Takes every free slot (at most {@code batch-size}, counting {@code held} slots the caller already has), claims
     * that many due deliveries, and frees the slots it could not fill. Each delivery answered keeps its slot until its
     * attempt ends.
     */
    private Mono<List<DueDelivery>> claimForFreeSlots(int held) {
        return Mono.defer(() -> {
            int room = held + reserve(settings.batchSize() - held);
            if (room == 0) {
                return Mono.just(List.of());
            }
            AtomicInteger unused = new AtomicInteger(room);
            Instant now = clock.instant();
            return claims.claim(now, room, now.plus(settings.claimLease()))
                    .doOnNext(dues -> unused.addAndGet(-dues.size()))
                    .doFinally(signal -> inFlight.addAndGet(-unused.getAndSet(0)));
        });
    }

    /** Takes up to {@code most} free slots; answers how many. */
    private int reserve(int most) {
        while (true) {
            int taken = inFlight.get();
            int room = Math.min(settings.concurrency() - taken, most);
            if (room <= 0) {
                return 0;
            }
            if (inFlight.compareAndSet(taken, taken + room)) {
                return room;
            }
        }
    }

    /** Starts one attempt in its slot; when it ends, the slot goes to the next due delivery. */
    private void launch(DueDelivery due) {
        started.incrementAndGet();
        attempts.attempt(due).doFinally(signal -> finished()).subscribe();
    }

    /** Hands the finished attempt's slot to a refill claim; it stays taken until that claim used or freed it. */
    private void finished() {
        handedOver.incrementAndGet();
        if (refillRequests.getAndIncrement() == 0) {
            refill();
        }
    }

    /**
     * Claims for every handed-over slot (and any other free one) at once: slots freed while a claim is under way are
     * claimed for right after it, by one claim rather than one each.
     */
    private void refill() {
        int slots = handedOver.getAndSet(0);
        Mono<List<DueDelivery>> claim = slots == 0 ? Mono.just(List.of()) : claimForFreeSlots(slots);
        claim.onErrorResume(failure -> {
                    log.warn(
                            "Claiming deliveries for freed slots failed; the next pass tries again: {}",
                            failure.toString());
                    return Mono.just(List.of());
                })
                .subscribe(dues -> dues.forEach(this::launch), null, () -> {
                    if (refillRequests.decrementAndGet() != 0) {
                        refillRequests.set(1);
                        refill();
                    }
                });
    }

    @Override
    protected Mono<Duration> runOnce() {
        return startDue().thenReturn(settings.pollInterval());
    }

    @Override
    protected Duration delayAfterFailure() {
        return settings.pollInterval();
    }

    @Override
    protected boolean enabled() {
        return settings.enabled();
    }
}
