package dev.cryptopay.service.background;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;

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

    /** Pauses an hour after each pass; a pass waits for {@link #release} when {@link #holdPasses} is set. */
    static final class SlowPollLoop extends BackgroundLoop {
        final AtomicInteger passes = new AtomicInteger();
        volatile boolean holdPasses;
        final Sinks.Empty<Void> release = Sinks.empty();

        @Override
        protected Mono<Duration> runOnce() {
            passes.incrementAndGet();
            Mono<Duration> pause = Mono.just(Duration.ofHours(1));
            return holdPasses ? release.asMono().then(pause) : pause;
        }

        @Override
        protected Duration delayAfterFailure() {
            return Duration.ofHours(1);
        }
    }

    @Test
    void aWakeUpEndsThePauseAtOnce() throws InterruptedException {
        SlowPollLoop loop = new SlowPollLoop();
        loop.start();
        awaitPasses(loop, 1);
        Thread.sleep(50);
        assertThat(loop.passes.get()).as("still pausing").isEqualTo(1);

        loop.wakeUp();
        awaitPasses(loop, 2);
        loop.wakeUp();
        awaitPasses(loop, 3);
        loop.stop();
    }

    @Test
    void aWakeUpDuringAPassStartsTheNextPassRightAfterIt() throws InterruptedException {
        SlowPollLoop loop = new SlowPollLoop();
        loop.holdPasses = true;
        loop.start();
        awaitPasses(loop, 1);

        loop.wakeUp(); // while the first pass is still running
        loop.holdPasses = false;
        loop.release.tryEmitEmpty();
        awaitPasses(loop, 2);
        Thread.sleep(50);
        assertThat(loop.passes.get()).as("one wake-up, one extra pass").isEqualTo(2);
        loop.stop();
    }

    private static void awaitPasses(SlowPollLoop loop, int passes) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
        while (loop.passes.get() < passes) {
            assertThat(System.nanoTime()).as("pass %d within 5 s", passes).isLessThan(deadline);
            Thread.sleep(2);
        }
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
