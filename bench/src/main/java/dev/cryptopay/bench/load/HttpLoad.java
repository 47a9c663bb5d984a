package dev.cryptopay.bench.load;

import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http.HttpMethod;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntConsumer;
import java.util.function.Supplier;
import org.HdrHistogram.ConcurrentHistogram;
import org.HdrHistogram.Histogram;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;
import reactor.netty.ByteBufFlux;
import reactor.netty.http.client.HttpClient;
import reactor.netty.resources.ConnectionProvider;

/**
 * Sends HTTP requests at a server in one of two ways and records each answer's latency in an HdrHistogram:
 *
 * <ul>
 *   <li><b>closed loop</b> ({@link #closedLoop}): a fixed number of connections, each sending its next request when
 *       the previous one is answered. It finds the maximum throughput; its latencies are those of a saturated server.
 *   <li><b>open loop</b> ({@link #openLoop}): requests start on a fixed schedule whatever the answers, and latency is
 *       measured from when each request <em>should</em> have started, so a stalled server cannot hide its stall by
 *       slowing the client down (no coordinated omission).
 * </ul>
 *
 * Requests answered during the warm-up are sent but not recorded. Any status other than the expected one counts as a
 * failure and is not recorded as a latency.
 */
final class HttpLoad {

    /**
     * One request, ready to send: everything (signature included) was computed beforehand or is cheap.
     * {@code onStatus} hears its status (0 when it got none), warm-up included.
     */
    record Request(String method, String uri, Map<String, String> headers, byte[] body, IntConsumer onStatus) {

        Request(String method, String uri, Map<String, String> headers, byte[] body) {
            this(method, uri, headers, body, status -> {});
        }

        Request whenAnswered(IntConsumer listener) {
            return new Request(method, uri, headers, body, listener);
        }
    }

    /** What one run measured. */
    record Result(
            String name,
            double seconds,
            long answered,
            long failed,
            Histogram latencyMicros,
            Map<String, Double> cpuMillisPerRequest,
            Map<String, Double> runQueueWaitMillisPerRequest) {

        double perSecond() {
            return answered / seconds;
        }

        double percentileMillis(double percentile) {
            return latencyMicros.getValueAtPercentile(percentile) / 1000.0;
        }

        @Override
        public String toString() {
            return String.format(
                    "%-34s %9.0f req/s   p50 %7.2f ms   p99 %7.2f ms   p99.9 %7.2f ms   failed %d",
                    name, perSecond(), percentileMillis(50), percentileMillis(99), percentileMillis(99.9), failed);
        }
    }

    private final HttpClient client;
    private final int expectedStatus;

    HttpLoad(int maxConnections, int expectedStatus) {
        this.client = HttpClient.create(ConnectionProvider.builder("load")
                        .maxConnections(maxConnections)
                        .pendingAcquireMaxCount(-1)
                        .pendingAcquireTimeout(Duration.ofSeconds(60))
                        .build())
                .keepAlive(true);
        this.expectedStatus = expectedStatus;
    }

    Result closedLoop(String name, Supplier<Request> next, int connections, Duration warmup, Duration measure) {
        Histogram latency = new ConcurrentHistogram(TimeUnit.MINUTES.toMicros(1), 3);
        AtomicLong answered = new AtomicLong();
        AtomicLong failed = new AtomicLong();
        long start = System.nanoTime();
        long recordFrom = start + warmup.toNanos();
        long end = recordFrom + measure.toNanos();
        CpuWindow cpu = new CpuWindow(warmup);
        Flux.range(0, connections)
                .flatMap(
                        worker -> Mono.defer(() -> {
                                    long sent = System.nanoTime();
                                    return send(next.get()).doOnNext(status -> {
                                        long done = System.nanoTime();
                                        if (sent >= recordFrom && done <= end) {
                                            record(status, done - sent, latency, answered, failed);
                                        }
                                    });
                                })
                                .repeat(() -> System.nanoTime() < end),
                        connections)
                .blockLast();
        return cpu.result(name, measure, answered.get(), failed.get(), latency);
    }

    Result openLoop(String name, Supplier<Request> next, double perSecond, Duration warmup, Duration measure) {
        Histogram latency = new ConcurrentHistogram(TimeUnit.MINUTES.toMicros(1), 3);
        AtomicLong answered = new AtomicLong();
        AtomicLong failed = new AtomicLong();
        long total = (long) (perSecond * (warmup.toNanos() + measure.toNanos()) / 1e9);
        long warmupRequests = (long) (perSecond * warmup.toNanos() / 1e9);
        double intervalNanos = 1e9 / perSecond;
        long start = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(50);
        AtomicLong scheduled = new AtomicLong();
        CpuWindow cpu = new CpuWindow(warmup.plusMillis(50));
        // Every millisecond, start whatever is due by now (catching up if a tick came late).
        Flux.interval(Duration.ofMillis(1), Schedulers.single())
                .onBackpressureDrop()
                .takeWhile(tick -> scheduled.get() < total)
                .flatMapIterable(tick -> {
                    long due = Math.min(total, (long) Math.floor((System.nanoTime() - start) / intervalNanos) + 1);
                    List<Long> indexes = new ArrayList<>();
                    for (long i = scheduled.get(); i < due; i++) {
                        indexes.add(i);
                    }
                    scheduled.set(Math.max(scheduled.get(), due));
                    return indexes;
                })
                .flatMap(
                        index -> {
                            long intended = start + (long) (index * intervalNanos);
                            // The first request is due at start: none is sent before it is due.
                            return send(next.get()).doOnNext(status -> {
                                if (index >= warmupRequests) {
                                    record(status, System.nanoTime() - intended, latency, answered, failed);
                                }
                            });
                        },
                        Integer.MAX_VALUE)
                .blockLast();
        return cpu.result(name, measure, answered.get(), failed.get(), latency);
    }

    /** The stack's CPU use from the end of the warm-up to the end of the run ({@link ProcessCpu}). */
    private static final class CpuWindow {

        private volatile Map<String, Double> cpuAtStart = Map.of();
        private volatile Map<Long, ProcessCpu.ThreadWait> waitAtStart = Map.of();

        CpuWindow(Duration warmup) {
            Mono.delay(warmup, Schedulers.parallel()).subscribe(tick -> {
                cpuAtStart = ProcessCpu.snapshot();
                waitAtStart = ProcessCpu.runQueueWait();
            });
        }

        /**
         * The run's result, with the CPU each process spent per request since the warm-up ended, and how long its
         * threads waited for a core meanwhile.
         */
        Result result(String name, Duration measure, long answered, long failed, Histogram latency) {
            long requests = answered + failed;
            Map<String, Double> cpu =
                    requests == 0 ? Map.of() : ProcessCpu.perOperation(cpuAtStart, ProcessCpu.snapshot(), requests);
            Map<String, Double> waited = requests == 0
                    ? Map.of()
                    : ProcessCpu.waitPerOperation(waitAtStart, ProcessCpu.runQueueWait(), requests);
            return new Result(name, measure.toNanos() / 1e9, answered, failed, latency, cpu, waited);
        }
    }

    private void record(int status, long nanos, Histogram latency, AtomicLong answered, AtomicLong failed) {
        if (status == expectedStatus) {
            latency.recordValue(Math.min(latency.getHighestTrackableValue(), nanos / 1000));
            answered.incrementAndGet();
        } else {
            failed.incrementAndGet();
        }
    }

    /** The status, or 0 when the request failed without one (connection refused or reset). */
    private Mono<Integer> send(Request request) {
        return client.headers(headers -> request.headers().forEach(headers::set))
                .request(HttpMethod.valueOf(request.method()))
                .uri(request.uri())
                .send(
                        request.body().length == 0
                                ? ByteBufFlux.empty()
                                : ByteBufFlux.fromInbound(Mono.just(Unpooled.wrappedBuffer(request.body()))))
                .responseSingle((response, body) ->
                        body.then(Mono.just(response.status().code())))
                .onErrorReturn(0)
                .doOnNext(request.onStatus()::accept);
    }
}
