package dev.cryptopay.service.background;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;

class BackgroundLoopTest {

    /** Fails on its first two passes, then succeeds. */
    static final class FlakyLoop extends BackgroundLoop {
        final AtomicInteger passes = new AtomicInteger();
        final boolean enabled;

        FlakyLoop(boolean enabled) {
            this.enabled = enabled;
        }

        @Override
        protected Mono<Duration> runOnce() {
            int pass = passes.incrementAndGet();
            return pass <= 2 ? Mono.error(new IllegalStateException("pass " + pass)) : Mono.just(Duration.ofMillis(5));
        }

        @Override
        protected Duration delayAfterFailure() {
            return Duration.ofMillis(5);
        }

        @Override
        protected boolean enabled() {
            return enabled;
        }
    }

    @Test
    void keepsRunningAfterFailedPassesUntilStopped() throws InterruptedException {
        FlakyLoop loop = new FlakyLoop(true);
        loop.start();
        assertThat(loop.isRunning()).isTrue();
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (loop.passes.get() < 6 && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        loop.stop();

        assertThat(loop.passes.get()).isGreaterThanOrEqualTo(6);
        assertThat(loop.isRunning()).isFalse();
        int afterStop = loop.passes.get();
        Thread.sleep(50);
        assertThat(loop.passes.get()).isLessThanOrEqualTo(afterStop + 1);
    }

    @Test
    void doesNotStartWhenDisabled() throws InterruptedException {
        FlakyLoop loop = new FlakyLoop(false);
        loop.start();
        Thread.sleep(30);
        assertThat(loop.isRunning()).isFalse();
        assertThat(loop.passes.get()).isZero();
    }
}
