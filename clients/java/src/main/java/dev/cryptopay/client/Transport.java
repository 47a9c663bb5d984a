package dev.cryptopay.client;

import dev.cryptopay.auth.keys.SigningKey;
import dev.cryptopay.auth.signature.AuthHeaders;
import dev.cryptopay.auth.signature.CanonicalRequest;
import dev.cryptopay.auth.signature.RequestSigner;
import java.io.Closeable;
import java.io.IOException;
import java.net.Authenticator;
import java.net.CookieHandler;
import java.net.ProxySelector;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;

/**
 * The JDK client the generated operations send through. On every attempt it signs the exact body bytes with a fresh
 * timestamp (so a retry is never a replay); it gives the create operations an {@code Idempotency-Key} when the caller
 * gave none, the same on every attempt; and it sends again as {@link RetryPolicy} says. Without a signing key (the
 * public and checkout routes) it only retries.
 *
 * <p>{@link #sendAsync} signs but does not retry: the generated operations this client hands out are synchronous.
 */
final class Transport extends HttpClient {

    static final String IDEMPOTENCY_KEY = "Idempotency-Key";

    /** The POST routes (relative to the API's base path) that honour {@code Idempotency-Key}. */
    private static final Set<String> CREATES = Set.of(
            "/payment_links",
            "/subscriptions/plans",
            "/subscriptions/plans/",
            "/subscriber",
            "/subscriber/",
            "/webhook-endpoints");

    private static final Set<String> REPEATABLE_METHODS = Set.of("GET", "HEAD", "PUT", "DELETE", "OPTIONS");

    /** How the transport waits between attempts; a test passes one that records instead of sleeping. */
    interface Sleeper {
        void sleep(Duration duration) throws InterruptedException;
    }

    static final Sleeper SLEEP = duration -> Thread.sleep(duration.toMillis());

    /** The merchant's credentials, or none for public routes. */
    record Credentials(String apiKey, SigningKey signingKey) {}

    private final HttpClient delegate;
    private final Credentials credentials;
    private final String basePath;
    private final RetryPolicy retry;
    private final Clock clock;
    private final Sleeper sleeper;
    private final AtomicLong lastTimestampMillis = new AtomicLong();

    Transport(
            HttpClient delegate,
            Credentials credentials,
            String basePath,
            RetryPolicy retry,
            Clock clock,
            Sleeper sleeper) {
        this.delegate = delegate;
        this.credentials = credentials;
        this.basePath = basePath.endsWith("/") ? basePath.substring(0, basePath.length() - 1) : basePath;
        this.retry = retry;
        this.clock = clock;
        this.sleeper = sleeper;
    }

    @Override
    public <T> HttpResponse<T> send(HttpRequest request, HttpResponse.BodyHandler<T> handler)
            throws IOException, InterruptedException {
        byte[] body = BodyBytes.of(request);
        HttpRequest base = withIdempotencyKey(request);
        boolean repeatable = REPEATABLE_METHODS.contains(base.method())
                || base.headers().firstValue(IDEMPOTENCY_KEY).isPresent();
        for (int attempt = 1; ; attempt++) {
            HttpResponse<T> response;
            try {
                response = delegate.send(prepare(base, body), handler);
            } catch (IOException e) {
                if (!repeatable || attempt >= retry.maxAttempts()) {
                    throw e;
                }
                sleeper.sleep(retry.backoff(attempt, ThreadLocalRandom.current().nextDouble()));
                continue;
            }
            Optional<Duration> wait = waitBeforeRetry(response, repeatable, attempt);
            if (wait.isEmpty()) {
                return response;
            }
            discard(response);
            sleeper.sleep(wait.get());
        }
    }

    @Override
    public <T> CompletableFuture<HttpResponse<T>> sendAsync(HttpRequest request, HttpResponse.BodyHandler<T> handler) {
        return sendAsync(request, handler, null);
    }

    @Override
    public <T> CompletableFuture<HttpResponse<T>> sendAsync(
            HttpRequest request,
            HttpResponse.BodyHandler<T> handler,
            HttpResponse.PushPromiseHandler<T> pushPromiseHandler) {
        try {
            return delegate.sendAsync(
                    prepare(withIdempotencyKey(request), BodyBytes.of(request)), handler, pushPromiseHandler);
        } catch (IOException e) {
            return CompletableFuture.failedFuture(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return CompletableFuture.failedFuture(e);
        }
    }

    /** The path the signature covers: the request's path below the base path, with its query when it has one. */
    String signedPath(URI uri) {
        String path = relativePath(uri);
        return uri.getRawQuery() == null ? path : path + "?" + uri.getRawQuery();
    }

    private String relativePath(URI uri) {
        String path = uri.getRawPath();
        return !basePath.isEmpty() && path.startsWith(basePath + "/") ? path.substring(basePath.length()) : path;
    }

    private HttpRequest withIdempotencyKey(HttpRequest request) {
        if (!"POST".equals(request.method())
                || request.headers().firstValue(IDEMPOTENCY_KEY).isPresent()
                || !CREATES.contains(relativePath(request.uri()))) {
            return request;
        }
        return HttpRequest.newBuilder(request, (name, value) -> true)
                .header(IDEMPOTENCY_KEY, UUID.randomUUID().toString())
                .build();
    }

    private HttpRequest prepare(HttpRequest request, byte[] body) {
        HttpRequest.Builder builder = HttpRequest.newBuilder(request, (name, value) -> true)
                .method(
                        request.method(),
                        request.bodyPublisher().isPresent()
                                ? HttpRequest.BodyPublishers.ofByteArray(body)
                                : HttpRequest.BodyPublishers.noBody());
        if (credentials != null) {
            String timestamp = nextTimestamp();
            CanonicalRequest canonical =
                    new CanonicalRequest(request.method(), signedPath(request.uri()), timestamp, body);
            builder.setHeader(AuthHeaders.API_KEY, credentials.apiKey())
                    .setHeader(AuthHeaders.TIMESTAMP, timestamp)
                    .setHeader(AuthHeaders.SIGNATURE, RequestSigner.sign(credentials.signingKey(), canonical));
        }
        return builder.build();
    }

    /**
     * A timestamp in milliseconds, later than every one this transport gave before: the gateway refuses a timestamp
     * and signature it has seen, and the same request signed twice within a millisecond would be exactly that.
     */
    private String nextTimestamp() {
        long now = clock.millis();
        long millis = lastTimestampMillis.updateAndGet(last -> Math.max(last + 1, now));
        return Instant.ofEpochMilli(millis).truncatedTo(ChronoUnit.MILLIS).toString();
    }

    private Optional<Duration> waitBeforeRetry(HttpResponse<?> response, boolean repeatable, int attempt) {
        int status = response.statusCode();
        boolean retryable = status == 429 || (repeatable && (status == 502 || status == 503 || status == 504));
        if (!retryable || attempt >= retry.maxAttempts()) {
            return Optional.empty();
        }
        Duration wait = RetryPolicy.retryAfter(response.headers())
                .orElseGet(
                        () -> retry.backoff(attempt, ThreadLocalRandom.current().nextDouble()));
        return wait.compareTo(retry.maxDelay()) > 0 ? Optional.empty() : Optional.of(wait);
    }

    private static void discard(HttpResponse<?> response) throws IOException {
        if (response.body() instanceof Closeable closeable) {
            closeable.close();
        }
    }

    @Override
    public Optional<CookieHandler> cookieHandler() {
        return delegate.cookieHandler();
    }

    @Override
    public Optional<Duration> connectTimeout() {
        return delegate.connectTimeout();
    }

    @Override
    public Redirect followRedirects() {
        return delegate.followRedirects();
    }

    @Override
    public Optional<ProxySelector> proxy() {
        return delegate.proxy();
    }

    @Override
    public SSLContext sslContext() {
        return delegate.sslContext();
    }

    @Override
    public SSLParameters sslParameters() {
        return delegate.sslParameters();
    }

    @Override
    public Optional<Authenticator> authenticator() {
        return delegate.authenticator();
    }

    @Override
    public Version version() {
        return delegate.version();
    }

    @Override
    public Optional<Executor> executor() {
        return delegate.executor();
    }
}
