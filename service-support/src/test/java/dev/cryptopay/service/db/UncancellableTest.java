package dev.cryptopay.service.db;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;

class UncancellableTest {

    @Test
    void aReadRunsToItsEndAfterItsSubscriberCancelled() throws InterruptedException {
        CountDownLatch finished = new CountDownLatch(1);
        AtomicBoolean cancelled = new AtomicBoolean();
        Mono<String> read = Mono.delay(Duration.ofMillis(100))
                .map(tick -> "row")
                .doOnSuccess(row -> finished.countDown())
                .doOnCancel(() -> cancelled.set(true));

        Uncancellable.read(read).subscribe().dispose();

        assertThat(finished.await(5, TimeUnit.SECONDS)).isTrue();
        assertThat(cancelled).isFalse();
    }

    @Test
    void answersWhatTheReadAnswers() {
        assertThat(Uncancellable.read(Mono.just(42)).block()).isEqualTo(42);
        assertThat(Uncancellable.read(Mono.<Integer>empty()).blockOptional()).isEmpty();
    }
}
