package dev.cryptopay.webhooks.delivery;

import dev.cryptopay.webhooks.delivery.DeliveryRepository.AttemptRecord;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;

/**
 * Writes this instance's succeeded attempts in batches: the successes that finish while a write is under way all go
 * into the next write, one statement for all of them ({@link DeliveryRepository#saveAttempts}: each delivery's new
 * state, its attempt log entry, its endpoint's run of failures ended). Alone, a success is written at once; under
 * load, attempts finish together and share a write instead of a transaction each. An attempt is only done — its slot
 * freed, its result counted — once the write holding it has answered, so nothing is taken as stored before it is; a
 * write that fails fails every attempt in it, and their deliveries are tried again when their claims lapse.
 */
@Component
class SucceededAttempts {

    /** The most attempts in one statement; more wait for the next write. */
    private static final int MAX_BATCH = 256;

    private final DeliveryRepository deliveries;
    private final Queue<Waiting> queue = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean writing = new AtomicBoolean();
    private final DistributionSummary batchSizes;

    SucceededAttempts(DeliveryRepository deliveries, MeterRegistry meters) {
        this.deliveries = deliveries;
        this.batchSizes = DistributionSummary.builder("webhook.delivery.success.batch")
                .description("Succeeded attempts stored per write")
                .register(meters);
    }

    /**
     * Stores the success with the next write; answers whether it was recorded (false when the delivery had moved on,
     * see {@link DeliveryRepository#saveAttempts}).
     */
    Mono<Boolean> record(AttemptRecord attempt) {
        return Mono.defer(() -> {
            Sinks.One<Boolean> recorded = Sinks.one();
            queue.add(new Waiting(attempt, recorded));
            writeIfIdle();
            return recorded.asMono();
        });
    }

    /** Starts a write of what is queued unless one is under way; the write under way starts the next when it ends. */
    private void writeIfIdle() {
        while (!queue.isEmpty() && writing.compareAndSet(false, true)) {
            List<Waiting> batch = take();
            if (!batch.isEmpty()) {
                write(batch);
                return;
            }
            writing.set(false); // another thread's write took them meanwhile; look again
        }
    }

    private List<Waiting> take() {
        List<Waiting> batch = new ArrayList<>();
        Waiting next;
        while (batch.size() < MAX_BATCH && (next = queue.poll()) != null) {
            batch.add(next);
        }
        return batch;
    }

    private void write(List<Waiting> batch) {
        batchSizes.record(batch.size());
        // Deferred: a statement that cannot even be built fails this write, never the recorder.
        Mono.defer(() -> deliveries.saveAttempts(
                        batch.stream().map(Waiting::attempt).toList()))
                .defaultIfEmpty(Set.of())
                .subscribe(
                        saved -> {
                            finished();
                            batch.forEach(waiting -> waiting.recorded()
                                    .tryEmitValue(saved.contains(
                                            waiting.attempt().before().id())));
                        },
                        failure -> {
                            finished();
                            batch.forEach(waiting -> waiting.recorded().tryEmitError(failure));
                        });
    }

    /** Lets the next write start, with what was queued meanwhile. */
    private void finished() {
        writing.set(false);
        writeIfIdle();
    }

    private record Waiting(AttemptRecord attempt, Sinks.One<Boolean> recorded) {}
}
