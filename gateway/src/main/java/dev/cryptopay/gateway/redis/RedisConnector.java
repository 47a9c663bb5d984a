package dev.cryptopay.gateway.redis;

import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.SocketOptions;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.codec.RedisCodec;
import io.lettuce.core.codec.StringCodec;
import java.util.concurrent.CompletableFuture;
import reactor.core.publisher.Mono;

/**
 * One shared Lettuce connection, opened on first use rather than at startup: a gateway whose Redis is down still
 * starts and answers 503 on limited routes (fail closed) until Redis is back, instead of crash-looping. A failed
 * connection attempt is retried by the next request; an established one reconnects by itself, and commands issued
 * while disconnected fail at once instead of queueing.
 */
public class RedisConnector implements AutoCloseable {

    private final RedisClient client;
    private final RedisURI uri;
    private CompletableFuture<StatefulRedisConnection<String, byte[]>> connection;

    public RedisConnector(GatewayRedisProperties properties) {
        this.uri = RedisURI.create(properties.uri());
        this.uri.setTimeout(properties.timeout());
        this.client = RedisClient.create();
        this.client.setOptions(ClientOptions.builder()
                .disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS)
                .autoReconnect(true)
                .timeoutOptions(TimeoutOptions.enabled(properties.timeout()))
                .socketOptions(SocketOptions.builder()
                        .connectTimeout(properties.timeout())
                        .build())
                .build());
    }

    /** The connection with String keys and byte[] values (what bucket4j needs), opened if necessary. */
    public Mono<StatefulRedisConnection<String, byte[]>> bytesConnection() {
        return Mono.fromFuture(this::currentOrNew);
    }

    private synchronized CompletableFuture<StatefulRedisConnection<String, byte[]>> currentOrNew() {
        if (connection == null || connection.isCompletedExceptionally()) {
            connection = client.connectAsync(RedisCodec.of(StringCodec.UTF8, ByteArrayCodec.INSTANCE), uri)
                    .toCompletableFuture();
        }
        return connection;
    }

    @Override
    public synchronized void close() {
        if (connection != null && connection.isDone() && !connection.isCompletedExceptionally()) {
            connection.join().close();
        }
        client.shutdown();
    }
}
