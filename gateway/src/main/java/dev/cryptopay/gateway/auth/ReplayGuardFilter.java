package dev.cryptopay.gateway.auth;

import dev.cryptopay.auth.signature.CanonicalRequest;
import dev.cryptopay.gateway.keys.ResolvedKey;
import dev.cryptopay.gateway.routing.FilterOrder;
import dev.cryptopay.gateway.routing.GatewayAttributes;
import dev.cryptopay.gateway.routing.RouteAccess;
import dev.cryptopay.service.error.ApiException;
import dev.cryptopay.service.requestid.RequestIds;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.cloud.gateway.filter.GatewayFilterChain;
import org.springframework.cloud.gateway.filter.GlobalFilter;
import org.springframework.cloud.gateway.support.ServerWebExchangeUtils;
import org.springframework.core.Ordered;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

/**
 * Refuses a signed POST/PUT/PATCH/DELETE whose signature was already used (by this key) within the replay window.
 * Runs after the signature and the rate limit passed, so forged requests cannot poison the cache. Reads are not
 * guarded: replaying a GET changes nothing.
 *
 * <p>The fingerprint is taken over the key id and the canonical request (method, path with its query, timestamp, body:
 * what is signed), not over the signature: re-encoding the signature, or signing the same request again (RSA-PSS
 * signatures are randomized, so each signing gives other bytes), does not get past it. The query is always included,
 * so signing the path without it (which the verifier also accepts) gives the same fingerprint.
 */
public class ReplayGuardFilter implements GlobalFilter, Ordered {

    private static final Logger log = LoggerFactory.getLogger(ReplayGuardFilter.class);
    private static final Set<HttpMethod> GUARDED =
            Set.of(HttpMethod.POST, HttpMethod.PUT, HttpMethod.PATCH, HttpMethod.DELETE);

    private final ReplayGuard guard;
    private final AuthFailures failures;

    public ReplayGuardFilter(ReplayGuard guard, AuthFailures failures) {
        this.guard = guard;
        this.failures = failures;
    }

    @Override
    public int getOrder() {
        return FilterOrder.REPLAY_GUARD;
    }

    @Override
    public Mono<Void> filter(ServerWebExchange exchange, GatewayFilterChain chain) {
        RouteAccess access = RouteAccess.of(exchange.getAttribute(ServerWebExchangeUtils.GATEWAY_ROUTE_ATTR));
        ResolvedKey caller = GatewayAttributes.caller(exchange);
        if (access != RouteAccess.SIGNED
                || caller == null
                || !GUARDED.contains(exchange.getRequest().getMethod())) {
            return chain.filter(exchange);
        }
        String fingerprint = exchange.getAttribute(GatewayAttributes.REPLAY_FINGERPRINT);
        if (fingerprint == null) {
            return Mono.error(new IllegalStateException("signed request without a replay fingerprint"));
        }
        return guard.firstUse(fingerprint)
                .onErrorMap(e -> {
                    log.error("Replay guard unavailable request_id={}: {}", RequestIds.of(exchange), e.toString());
                    return new ApiException(
                            HttpStatus.SERVICE_UNAVAILABLE,
                            "replay_guard_unavailable",
                            "Request verification is temporarily unavailable; retry shortly");
                })
                .flatMap(first -> first
                        ? chain.filter(exchange)
                        : failures.reject(
                                exchange,
                                "replayed_request",
                                "Request already processed (replayed request)",
                                caller.displayPrefix()));
    }

    /** SHA-256 (hex) over the key id, a separator and the canonical request's bytes. */
    static String fingerprint(ResolvedKey caller, CanonicalRequest request) {
        try {
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            digest.update(caller.keyId().toString().getBytes(StandardCharsets.US_ASCII));
            digest.update((byte) 0);
            digest.update(request.toBytes());
            return HexFormat.of().formatHex(digest.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
