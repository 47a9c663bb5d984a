package dev.cryptopay.service.background;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;

/**
 * Runs {@link #runOnce()} again and again while the application runs: each pass answers how long to wait before the
 * next, so a loop can poll fast while there is work and back off when something fails. A pass that fails anyway is
 * logged and retried after {@link #delayAfterFailure()}; the loop itself never dies. Starts with the application
 * context (when {@link #enabled()}) and stops with it.
 *
 * <p>{@link #wakeUp()} says there is work now: the pause ends at once, or, if a pass is running, the next pass starts
 * right after it. Polling stays the safety net (a wake-up can come from another instance's work, or not at all).
 */
public abstract class BackgroundLoop implements SmartLifecycle {

    private final Logger log = LoggerFactory.getLogger(getClass());
    private final Sinks.Many<Boolean> wakeUps = Sinks.many().multicast().directBestEffort();
    /** Set by {@link #wakeUp()}, cleared when a pass starts: a wake-up during a pass is not lost. */
    private final AtomicBoolean wokenUp = new AtomicBoolean();

    private volatile Disposable loop;

    /** One pass of work; answers the pause before the next pass. */
    protected abstract Mono<Duration> runOnce();

    /** The pause after a pass that failed unexpectedly. */
    protected abstract Duration delayAfterFailure();

    /** Whether this instance runs the loop at all (configuration may turn it off). */
    protected boolean enabled() {
        return true;
    }

    @Override
    public void start() {
        if (!enabled() || loop != null) {
            return;
        }
        loop = Mono.defer(() -> {
                    wokenUp.set(false);
                    return runOnce();
                })
                .onErrorResume(failure -> {
                    log.warn(
                            "{} pass failed, retrying in {}: {}",
                            getClass().getSimpleName(),
                            delayAfterFailure(),
                            failure.toString());
                    return Mono.just(delayAfterFailure());
                })
                .flatMap(this::pause)
                .repeat()
                .subscribe();
    }

    /** Ends the current pause now, or the next one at once if a pass is running. */
    public void wakeUp() {
        wokenUp.set(true);
        wakeUps.tryEmitNext(Boolean.TRUE);
    }

    /**
     * The pause, cut short by a wake-up. The flag is checked after listening for wake-ups (merge subscribes in
     * order), so one that came before (during the pass) or comes at any moment after ends it.
     */
    private Mono<?> pause(Duration delay) {
        return Flux.<Object>merge(
                        wakeUps.asFlux(), Mono.fromSupplier(wokenUp::get).filter(woken -> woken), Mono.delay(delay))
                .next();
    }

    @Override
    public void stop() {
        Disposable running = loop;
        loop = null;
        if (running != null) {
            running.dispose();
        }
    }

    @Override
    public boolean isRunning() {
        return loop != null;
    }
}
