package dev.cryptopay.client;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.http.HttpRequest;
import java.nio.ByteBuffer;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** The bytes a request's body publisher sends: what is signed, and what is sent again on a retry. */
final class BodyBytes {

    private static final byte[] NONE = new byte[0];

    private BodyBytes() {}

    static byte[] of(HttpRequest request) throws IOException, InterruptedException {
        if (request.bodyPublisher().isEmpty()) {
            return NONE;
        }
        Collector collector = new Collector();
        request.bodyPublisher().get().subscribe(collector);
        try {
            return collector.done.get(10, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            throw new IOException("could not read the request body", e.getCause());
        } catch (TimeoutException e) {
            throw new IOException("the request body was not produced within 10 s", e);
        }
    }

    private static final class Collector implements Flow.Subscriber<ByteBuffer> {
        private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        private final CompletableFuture<byte[]> done = new CompletableFuture<>();

        @Override
        public void onSubscribe(Flow.Subscription subscription) {
            subscription.request(Long.MAX_VALUE);
        }

        @Override
        public void onNext(ByteBuffer item) {
            byte[] chunk = new byte[item.remaining()];
            item.get(chunk);
            bytes.writeBytes(chunk);
        }

        @Override
        public void onError(Throwable throwable) {
            done.completeExceptionally(throwable);
        }

        @Override
        public void onComplete() {
            done.complete(bytes.toByteArray());
        }
    }
}
