package dev.cryptopay.gateway.identity;

import dev.cryptopay.auth.internal.InternalHeaders;
import dev.cryptopay.auth.internal.InternalRequest;
import dev.cryptopay.auth.internal.InternalTokenSigner;
import dev.cryptopay.auth.internal.MerchantCredential;
import dev.cryptopay.auth.internal.MerchantIdentity;
import dev.cryptopay.auth.signature.AuthHeaders;
import dev.cryptopay.gateway.keys.KeyKind;
import dev.cryptopay.gateway.keys.ResolvedKey;
import dev.cryptopay.gateway.routing.FilterOrder;
import dev.cryptopay.gateway.routing.GatewayAttributes;
import dev.cryptopay.gateway.routing.RouteAudience;
import dev.cryptopay.service.request.CachedBody;
import dev.cryptopay.service.requestid.RequestIds;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.List;
import java.util.Locale;
import org.springframework.cloud.gateway.filter.GatewayFilterChain;
import org.springframework.cloud.gateway.filter.GlobalFilter;
import org.springframework.cloud.gateway.support.ServerWebExchangeUtils;
import org.springframework.core.Ordered;
import org.springframework.http.HttpHeaders;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

/**
 * Sets who is calling on every forwarded request. Client-sent {@code X-Merchant-*} and {@code X-Internal-*} headers
 * are always removed (as are the merchant's {@code X-API-Key} and {@code X-API-Signature}, which services have no use
 * for); then the gateway adds {@code X-Request-Id}, the merchant headers when the request was authenticated (with
 * {@code X-Merchant-Credential}: whether an API key or only a publishable key named the merchant), and an
 * {@code X-Internal-Auth} token of the caller {@code gateway}, signed with its private key, for the one service the
 * route reaches ({@link RouteAudience}) and bound to the identity, the method, the path and query exactly as the
 * service receives them, and the SHA-256 of the body bytes forwarded. Public requests get a token without identity,
 * because services require a token on every non-actuator route.
 *
 * <p>The body was read (within {@code gateway.max-body-size}) by authentication and is replayed from memory; it is
 * read here once more to hash the very bytes that go upstream.
 */
public class IdentityPropagationFilter implements GlobalFilter, Ordered {

    private final InternalTokenSigner tokens;
    private final Clock clock;
    private final int maxBodyBytes;

    public IdentityPropagationFilter(InternalTokenSigner tokens, Clock clock, int maxBodyBytes) {
        this.tokens = tokens;
        this.clock = clock;
        this.maxBodyBytes = maxBodyBytes;
    }

    @Override
    public int getOrder() {
        return FilterOrder.IDENTITY;
    }

    @Override
    public Mono<Void> filter(ServerWebExchange exchange, GatewayFilterChain chain) {
        return CachedBody.read(exchange, maxBodyBytes).flatMap(body -> forward(body, chain));
    }

    private Mono<Void> forward(CachedBody body, GatewayFilterChain chain) {
        ServerWebExchange exchange = body.exchange();
        URI upstream = sentUri(exchange);
        String upstreamPath =
                upstream.getRawPath() == null || upstream.getRawPath().isEmpty() ? "/" : upstream.getRawPath();
        ResolvedKey caller = GatewayAttributes.caller(exchange);
        MerchantIdentity identity = caller == null ? null : caller.identity();
        MerchantCredential credential = caller == null ? null : credential(caller.kind());
        InternalRequest request = InternalRequest.of(
                exchange.getRequest().getMethod().name(), upstreamPath, upstream.getRawQuery(), body.bytes());
        String audience = RouteAudience.of(exchange.getAttribute(ServerWebExchangeUtils.GATEWAY_ROUTE_ATTR));
        // A route the gateway answers itself sends nothing on: it needs no token.
        String token = audience == null ? null : tokens.issue(audience, identity, credential, request, clock.instant());
        String requestId = RequestIds.of(exchange);
        ServerWebExchange forwarded = exchange.mutate()
                .request(forwardedRequest -> forwardedRequest.headers(headers -> {
                    stripClientIdentity(headers);
                    if (requestId != null) {
                        headers.set(InternalHeaders.REQUEST_ID, requestId);
                    }
                    if (identity != null) {
                        headers.set(
                                InternalHeaders.MERCHANT_ID,
                                identity.merchantId().toString());
                        headers.set(
                                InternalHeaders.MERCHANT_MODE, identity.mode().wireName());
                        headers.set(InternalHeaders.MERCHANT_CREDENTIAL, credential.wireName());
                        if (caller.merchant() != null) {
                            // What customer pages may call the merchant (the subscribe page); display text only.
                            headers.set(
                                    InternalHeaders.MERCHANT_NAME,
                                    URLEncoder.encode(caller.merchant().name(), StandardCharsets.UTF_8));
                        }
                    }
                    if (token != null) {
                        headers.set(InternalHeaders.INTERNAL_AUTH, token);
                    }
                }))
                .build();
        return chain.filter(forwarded);
    }

    private static MerchantCredential credential(KeyKind kind) {
        return kind == KeyKind.PUBLISHABLE_KEY ? MerchantCredential.PUBLISHABLE_KEY : MerchantCredential.API_KEY;
    }

    /**
     * The upstream URI as the routing filter puts it on the wire (its ASCII form), so path and query are bound exactly
     * as the service will read them from its request line.
     */
    private static URI sentUri(ServerWebExchange exchange) {
        URI upstream = exchange.getAttribute(ServerWebExchangeUtils.GATEWAY_REQUEST_URL_ATTR);
        return upstream == null ? URI.create("/") : URI.create(upstream.toASCIIString());
    }

    static void stripClientIdentity(HttpHeaders headers) {
        List<String> names = headers.headerNames().stream()
                .filter(name -> {
                    String lower = name.toLowerCase(Locale.ROOT);
                    return lower.startsWith("x-merchant-") || lower.startsWith("x-internal-");
                })
                .toList();
        names.forEach(headers::remove);
        headers.remove(AuthHeaders.API_KEY);
        headers.remove(AuthHeaders.SIGNATURE);
    }
}
