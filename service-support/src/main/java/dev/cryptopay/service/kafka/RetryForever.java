package dev.cryptopay.service.kafka;

import org.springframework.kafka.listener.CommonErrorHandler;
import org.springframework.kafka.listener.DefaultErrorHandler;
import org.springframework.util.backoff.ExponentialBackOff;

/**
 * The error handler of a listener whose records must never be skipped: a record (or poll) whose handling failed — the
 * database is down, say — is handed over again, in order, after 0.2 s, then twice as long each time up to 10 s, until
 * it succeeds. Spring Kafka's default handler gives up after ten tries in a row and commits past the record, which
 * would lose it. A listener that can meet a record it will never handle (malformed) skips or parks it itself.
 */
public final class RetryForever {

    private RetryForever() {}

    public static CommonErrorHandler handler() {
        ExponentialBackOff backOff = new ExponentialBackOff(200, 2.0);
        backOff.setMaxInterval(10_000);
        backOff.setMaxElapsedTime(Long.MAX_VALUE);
        return new DefaultErrorHandler(backOff);
    }
}
