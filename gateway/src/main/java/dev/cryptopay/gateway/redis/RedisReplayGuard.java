package dev.cryptopay.gateway.redis;

import dev.cryptopay.gateway.auth.ReplayGuard;
import io.lettuce.core.SetArgs;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import reactor.core.publisher.Mono;

/** Replay guard shared by all instances: {@code SET key 1 NX PX window}; "OK" means first use. */
public class RedisReplayGuard implements ReplayGuard {

    private static final byte[] MARK = "1".getBytes(StandardCharsets.US_ASCII);

    private final RedisConnector redis;
    private final String keyPrefix;
    private final Duration window;
    private final Duration timeout;

    public RedisReplayGuard(RedisConnector redis, String keyPrefix, Duration window, Duration timeout) {
        this.redis = redis;
        this.keyPrefix = keyPrefix;
        this.window = window;
        this.timeout = timeout;
    }

    @Override
    public Mono<Boolean> firstUse(String fingerprint) {
        return redis.bytesConnection()
                .flatMap(connection -> connection
                        .reactive()
                        .set(
                                keyPrefix + "replay:" + fingerprint,
                                MARK,
                                SetArgs.Builder.nx().px(window.toMillis())))
                .map("OK"::equals)
                .defaultIfEmpty(false)
                .timeout(timeout);
    }
}
