package dev.cryptopay.service.background;

import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import reactor.core.Disposable;
import reactor.core.publisher.Mono;

/**
 * Runs {@link #runOnce()} again and again while the application runs: each pass answers how long to wait before the
 * next, so a loop can poll fast while there is work and back off when something fails. A pass that fails anyway is
 * logged and retried after {@link #delayAfterFailure()}; the loop itself never dies. Starts with the application
 * context (when {@link #enabled()}) and stops with it.
 */
public abstract class BackgroundLoop implements SmartLifecycle {

    private final Logger log = LoggerFactory.getLogger(getClass());
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
        loop = Mono.defer(this::runOnce)
                .onErrorResume(failure -> {
                    log.warn(
                            "{} pass failed, retrying in {}: {}",
                            getClass().getSimpleName(),
                            delayAfterFailure(),
                            failure.toString());
                    return Mono.just(delayAfterFailure());
                })
                .flatMap(Mono::delay)
                .repeat()
                .subscribe();
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
