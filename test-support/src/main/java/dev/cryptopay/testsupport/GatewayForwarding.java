package dev.cryptopay.testsupport;

import dev.cryptopay.auth.Mode;
import dev.cryptopay.auth.internal.InternalHeaders;
import dev.cryptopay.auth.internal.InternalRequest;
import dev.cryptopay.auth.internal.InternalTokenSigner;
import dev.cryptopay.auth.internal.MerchantCredential;
import dev.cryptopay.auth.internal.MerchantIdentity;
import java.net.URI;
import java.time.Clock;
import java.util.UUID;
import org.reactivestreams.Publisher;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.client.reactive.ClientHttpRequest;
import org.springframework.http.client.reactive.ClientHttpRequestDecorator;
import org.springframework.test.web.reactive.server.WebTestClient;
import org.springframework.web.reactive.function.client.ClientRequest;
import org.springframework.web.reactive.function.client.ExchangeFilterFunction;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Sends test requests to a service the way an internal caller does: the gateway forwarding a merchant's request
 * (identity headers and its token), or another caller such as the chain watcher with its own key. The token is
 * issued for the service under test when the request is written, over the method, raw path and query and the exact
 * body bytes sent, at the service's own clock (so tests that move the clock still pass the token check). A merchant's
 * request carries {@code X-Merchant-Credential: api_key} unless the test sets another.
 */
public final class GatewayForwarding {

    private final InternalTokenSigner tokens;
    private final String audience;
    private final Clock clock;
    private WebTestClient lastClient;
    private WebTestClient lastSigning;

    /** The gateway, signing with its test key ({@link InternalTestKeys}) for the service {@code audience}. */
    public GatewayForwarding(String audience, Clock clock) {
        this(InternalTestKeys.gateway(), audience, clock);
    }

    /** Any internal caller, signing with its own key for the service {@code audience}. */
    public GatewayForwarding(InternalTokenSigner caller, String audience, Clock clock) {
        this.tokens = caller;
        this.audience = audience;
        this.clock = clock;
    }

    /** A request for this merchant, or a call without merchant identity when {@code merchant} is null. */
    public WebTestClient.RequestBodySpec as(
            WebTestClient web, MerchantIdentity merchant, HttpMethod method, String uri) {
        return identify(signing(web).method(method).uri(uri), merchant);
    }

    /** As {@link #as(WebTestClient, MerchantIdentity, HttpMethod, String)}, for a URI sent exactly as encoded. */
    public WebTestClient.RequestBodySpec as(WebTestClient web, MerchantIdentity merchant, HttpMethod method, URI uri) {
        return identify(signing(web).method(method).uri(uri), merchant);
    }

    private static WebTestClient.RequestBodySpec identify(
            WebTestClient.RequestBodySpec request, MerchantIdentity merchant) {
        if (merchant == null) {
            return request;
        }
        return request.header(InternalHeaders.MERCHANT_ID, merchant.merchantId().toString())
                .header(InternalHeaders.MERCHANT_MODE, merchant.mode().wireName())
                .header(InternalHeaders.MERCHANT_CREDENTIAL, MerchantCredential.API_KEY.wireName());
    }

    /** The client with the signing filter; made once per client (a test class's client stays the same). */
    private synchronized WebTestClient signing(WebTestClient web) {
        if (lastClient != web) {
            lastSigning = web.mutate().filter(signer()).build();
            lastClient = web;
        }
        return lastSigning;
    }

    private ExchangeFilterFunction signer() {
        return (request, next) -> next.exchange(ClientRequest.from(request)
                .body((message, context) -> request.body().insert(new Signing(message, request), context))
                .build());
    }

    /** Sets the token on the request just before it is written, once its body bytes are known. */
    private final class Signing extends ClientHttpRequestDecorator {

        private final ClientRequest request;

        Signing(ClientHttpRequest delegate, ClientRequest request) {
            super(delegate);
            this.request = request;
        }

        @Override
        public Mono<Void> writeWith(Publisher<? extends DataBuffer> body) {
            return DataBufferUtils.join(body)
                    .map(joined -> {
                        try {
                            byte[] bytes = new byte[joined.readableByteCount()];
                            joined.read(bytes);
                            return bytes;
                        } finally {
                            DataBufferUtils.release(joined);
                        }
                    })
                    .defaultIfEmpty(new byte[0])
                    .flatMap(bytes -> {
                        sign(bytes);
                        return super.writeWith(Mono.just(bufferFactory().wrap(bytes)));
                    });
        }

        @Override
        public Mono<Void> writeAndFlushWith(Publisher<? extends Publisher<? extends DataBuffer>> body) {
            return writeWith(Flux.from(body).concatMap(Flux::from));
        }

        @Override
        public Mono<Void> setComplete() {
            sign(new byte[0]);
            return super.setComplete();
        }

        private void sign(byte[] body) {
            URI sent = URI.create(request.url().toASCIIString());
            HttpHeaders headers = getHeaders();
            InternalRequest signed =
                    InternalRequest.of(request.method().name(), sent.getRawPath(), sent.getRawQuery(), body);
            MerchantIdentity identity = identity(headers);
            String credential = headers.getFirst(InternalHeaders.MERCHANT_CREDENTIAL);
            headers.set(
                    InternalHeaders.INTERNAL_AUTH,
                    tokens.issue(
                            audience,
                            identity,
                            identity == null || credential == null ? null : MerchantCredential.fromWireName(credential),
                            signed,
                            clock.instant()));
        }

        private static MerchantIdentity identity(HttpHeaders headers) {
            String id = headers.getFirst(InternalHeaders.MERCHANT_ID);
            String mode = headers.getFirst(InternalHeaders.MERCHANT_MODE);
            return id == null || mode == null
                    ? null
                    : new MerchantIdentity(UUID.fromString(id), Mode.fromWireName(mode));
        }
    }
}
