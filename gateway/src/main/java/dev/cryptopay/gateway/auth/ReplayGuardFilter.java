package dev.cryptopay.gateway.auth;

import dev.cryptopay.auth.signature.AuthHeaders;
import dev.cryptopay.gateway.keys.ResolvedKey;
import dev.cryptopay.gateway.routing.FilterOrder;
import dev.cryptopay.gateway.routing.GatewayAttributes;
import dev.cryptopay.gateway.routing.RouteAccess;
import dev.cryptopay.service.error.ApiException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
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
 * <p>The fingerprint is taken over the decoded signature bytes, not the header text, so re-encoding the same signature
 * (dropping Base64 padding) does not get past it.
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
        String signature = exchange.getRequest().getHeaders().getFirst(AuthHeaders.SIGNATURE);
        String fingerprint = fingerprint(caller, Base64.getDecoder().decode(signature.strip()));
        return guard.firstUse(fingerprint)
                .onErrorMap(e -> {
                    log.error("Replay guard unavailable: {}", e.toString());
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
                                "Request already processed (replayed signature)",
                                caller.displayPrefix()));
    }

    private static String fingerprint(ResolvedKey caller, byte[] signature) {
        try {
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            digest.update(caller.keyId().toString().getBytes(StandardCharsets.US_ASCII));
            digest.update(signature);
            return HexFormat.of().formatHex(digest.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
