package dev.cryptopay.gateway.auth;

import dev.cryptopay.auth.apikey.ApiKey;
import dev.cryptopay.auth.signature.AuthHeaders;
import dev.cryptopay.auth.signature.CanonicalRequest;
import dev.cryptopay.auth.signature.RequestVerifier;
import dev.cryptopay.auth.signature.VerificationOutcome;
import dev.cryptopay.gateway.keys.ApiKeyRegistry;
import dev.cryptopay.gateway.keys.KeyKind;
import dev.cryptopay.gateway.keys.KeyScope;
import dev.cryptopay.gateway.keys.LastUsedRecorder;
import dev.cryptopay.gateway.keys.PublishableKey;
import dev.cryptopay.gateway.keys.ResolvedKey;
import dev.cryptopay.gateway.routing.FilterOrder;
import dev.cryptopay.gateway.routing.GatewayAttributes;
import dev.cryptopay.gateway.routing.PathGuard;
import dev.cryptopay.gateway.routing.RouteAccess;
import dev.cryptopay.gateway.routing.RouteScopes;
import dev.cryptopay.service.error.ApiException;
import dev.cryptopay.service.request.CachedBody;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.util.Optional;
import org.springframework.cloud.gateway.filter.GatewayFilterChain;
import org.springframework.cloud.gateway.filter.GlobalFilter;
import org.springframework.cloud.gateway.route.Route;
import org.springframework.cloud.gateway.support.ServerWebExchangeUtils;
import org.springframework.core.Ordered;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Authenticates every routed request according to its route's {@link RouteAccess}: verifies the merchant's signature
 * over {@code METHOD + PATH + TIMESTAMP + BODY}, resolves {@code merchant_key} on the public payment call, or lets
 * public calls through. Reads the body once (enforcing the size limit) so the bytes verified are the bytes forwarded.
 *
 * <p>Checks run cheapest first: headers and timestamp, key format, key lookup (cached), then the signature.
 *
 * <p>Publishable keys ({@code pk_…}) are accepted only in {@code merchant_key}; as {@code X-API-Key} they are refused
 * with {@code publishable_key_not_allowed} before anything is looked up. In {@code merchant_key} the secret API key
 * ({@code mk_…}) is still accepted for compatibility and counted in {@link #API_KEY_AS_MERCHANT_KEY_METRIC}.
 */
public class SignatureAuthenticationFilter implements GlobalFilter, Ordered {

    static final String MALFORMED_KEY =
            "Malformed API key: expected mk_test_ or mk_live_ followed by 32 characters A-Z2-7";
    static final String MALFORMED_MERCHANT_KEY = "Malformed merchant_key: expected a publishable key (pk_test_ or "
            + "pk_live_) or, discouraged, an API key (mk_test_ or mk_live_), followed by 32 characters A-Z2-7";
    static final String PUBLISHABLE_KEY_NOT_ALLOWED = "Publishable keys (pk_…) work only as merchant_key on "
            + "POST /public/subscriptions/link/payment; sign requests with your API key (mk_…) in X-API-Key";

    /** Counter of payment reports whose merchant_key is a secret API key rather than a publishable key. */
    public static final String API_KEY_AS_MERCHANT_KEY_METRIC = "gateway.merchant_key.api_key_used";

    private final RequestVerifier verifier;
    private final ApiKeyRegistry registry;
    private final LastUsedRecorder lastUsed;
    private final AuthFailures failures;
    private final JsonMapper json;
    private final Clock clock;
    private final int maxBodyBytes;
    private final MeterRegistry meters;

    public SignatureAuthenticationFilter(
            RequestVerifier verifier,
            ApiKeyRegistry registry,
            LastUsedRecorder lastUsed,
            AuthFailures failures,
            JsonMapper json,
            Clock clock,
            int maxBodyBytes,
            MeterRegistry meters) {
        this.verifier = verifier;
        this.registry = registry;
        this.lastUsed = lastUsed;
        this.failures = failures;
        this.json = json;
        this.clock = clock;
        this.maxBodyBytes = maxBodyBytes;
        this.meters = meters;
    }

    @Override
    public int getOrder() {
        return FilterOrder.AUTHENTICATION;
    }

    @Override
    public Mono<Void> filter(ServerWebExchange exchange, GatewayFilterChain chain) {
        Route route = exchange.getAttribute(ServerWebExchangeUtils.GATEWAY_ROUTE_ATTR);
        RouteAccess access = RouteAccess.of(route);
        if (access == null) {
            return chain.filter(exchange);
        }
        ServerHttpRequest request = exchange.getRequest();
        String rawPath = request.getPath().value();
        if (!PathGuard.isSafe(rawPath)) {
            return Mono.error(ApiException.badRequest(
                    "invalid_path",
                    "Malformed request path: dot segments, encoded slashes, empty segments and ';' are not allowed"));
        }
        String relativePath = GatewayAttributes.relativePath(rawPath);
        return switch (access) {
            case SIGNED ->
                authenticateSigned(
                        exchange, chain, relativePath, RouteScopes.required(route, request.getMethod(), relativePath));
            case MERCHANT_KEY -> authenticateMerchantKey(exchange, chain);
            case PUBLIC -> CachedBody.read(exchange, maxBodyBytes).flatMap(body -> chain.filter(body.exchange()));
        };
    }

    private Mono<Void> authenticateSigned(
            ServerWebExchange exchange, GatewayFilterChain chain, String path, KeyScope scope) {
        HttpHeaders headers = exchange.getRequest().getHeaders();
        String apiKeyText = headers.getFirst(AuthHeaders.API_KEY);
        String signature = headers.getFirst(AuthHeaders.SIGNATURE);
        String timestamp = headers.getFirst(AuthHeaders.TIMESTAMP);
        if (apiKeyText != null && apiKeyText.strip().startsWith(PublishableKey.PREFIX)) {
            // Decided on the prefix alone: no lookup, and the caller learns which key to use instead.
            return failures.reject(exchange, "publishable_key_not_allowed", PUBLISHABLE_KEY_NOT_ALLOWED, null);
        }
        VerificationOutcome headerOutcome = verifier.checkHeaders(apiKeyText, signature, timestamp);
        if (!headerOutcome.isOk()) {
            return failures.reject(exchange, headerOutcome.code(), headerOutcome.message(), null);
        }
        if (!ApiKey.isWellFormed(apiKeyText)) {
            return failures.reject(exchange, "malformed_api_key", MALFORMED_KEY, null);
        }
        ApiKey apiKey = ApiKey.parse(apiKeyText);
        exchange.getAttributes().put(GatewayAttributes.KEY_PREFIX, apiKey.displayPrefix());
        return registry.resolve(apiKey).flatMap(found -> {
            if (found.isEmpty()) {
                return failures.reject(exchange, "invalid_api_key", "Invalid API key", apiKey.displayPrefix());
            }
            ResolvedKey key = found.get();
            if (!key.isActive()) {
                return failures.reject(exchange, "api_key_revoked", "API key has been revoked", key.displayPrefix());
            }
            return CachedBody.read(exchange, maxBodyBytes).flatMap(body -> {
                VerificationOutcome outcome = verifier.verify(
                        key.verificationKey(),
                        exchange.getRequest().getMethod().name(),
                        path,
                        exchange.getRequest().getURI().getRawQuery(),
                        timestamp,
                        signature,
                        body.bytes());
                if (!outcome.isOk()) {
                    return failures.reject(exchange, outcome.code(), outcome.message(), key.displayPrefix());
                }
                String rawQuery = exchange.getRequest().getURI().getRawQuery();
                CanonicalRequest canonical = new CanonicalRequest(
                        exchange.getRequest().getMethod().name(),
                        rawQuery == null ? path : path + "?" + rawQuery,
                        timestamp,
                        body.bytes());
                body.exchange()
                        .getAttributes()
                        .put(GatewayAttributes.REPLAY_FINGERPRINT, ReplayGuardFilter.fingerprint(key, canonical));
                // Checked after the signature: only the key's holder learns what the key may not do.
                if (scope != null
                        && !KeyScope.allows(
                                key.scopes(),
                                scope,
                                RouteScopes.reads(exchange.getRequest().getMethod()))) {
                    return Mono.error(missingScope(scope));
                }
                return proceed(body.exchange(), chain, key);
            });
        });
    }

    private Mono<Void> authenticateMerchantKey(ServerWebExchange exchange, GatewayFilterChain chain) {
        return CachedBody.read(exchange, maxBodyBytes).flatMap(body -> {
            String merchantKey = merchantKey(body.bytes());
            if (merchantKey == null || merchantKey.isBlank()) {
                return failures.reject(exchange, "missing_merchant_key", "Missing merchant_key", null);
            }
            Mono<Optional<ResolvedKey>> lookup;
            String displayPrefix;
            if (PublishableKey.isWellFormed(merchantKey)) {
                PublishableKey publishable = PublishableKey.parse(merchantKey);
                displayPrefix = publishable.displayPrefix();
                lookup = registry.resolve(publishable);
            } else if (ApiKey.isWellFormed(merchantKey)) {
                ApiKey apiKey = ApiKey.parse(merchantKey);
                displayPrefix = apiKey.displayPrefix();
                lookup = registry.resolve(apiKey);
            } else {
                return failures.reject(exchange, "malformed_api_key", MALFORMED_MERCHANT_KEY, null);
            }
            exchange.getAttributes().put(GatewayAttributes.KEY_PREFIX, displayPrefix);
            return lookup.flatMap(found -> {
                if (found.isEmpty()) {
                    return failures.reject(exchange, "invalid_api_key", "Invalid merchant_key", displayPrefix);
                }
                ResolvedKey key = found.get();
                if (!key.isActive()) {
                    return failures.reject(
                            exchange, "api_key_revoked", "merchant_key has been revoked", key.displayPrefix());
                }
                if (key.kind() == KeyKind.API_KEY) {
                    meters.counter(API_KEY_AS_MERCHANT_KEY_METRIC).increment();
                }
                return proceed(body.exchange(), chain, key);
            });
        });
    }

    /** The 403 of a key without the scope a request needs; it names the scope. */
    public static ApiException missingScope(KeyScope scope) {
        return new ApiException(
                HttpStatus.FORBIDDEN,
                "missing_scope",
                "This API key does not have the " + scope.wireName() + " scope"
                        + (scope == KeyScope.READ ? "" : " (nor read, for a request that only reads)")
                        + "; use a key that has it, or create one with it (POST /account/keys)");
    }

    private Mono<Void> proceed(ServerWebExchange exchange, GatewayFilterChain chain, ResolvedKey key) {
        lastUsed.touch(key.kind(), key.keyId(), clock.instant());
        exchange.getAttributes().put(GatewayAttributes.CALLER, key);
        return chain.filter(exchange);
    }

    /** The {@code merchant_key} string member of a JSON object body, or null (no body, not JSON, not a string). */
    private String merchantKey(byte[] body) {
        if (body.length == 0) {
            return null;
        }
        try {
            JsonNode node = json.readTree(body);
            JsonNode value = node == null ? null : node.get("merchant_key");
            return value != null && value.isString() ? value.stringValue() : null;
        } catch (JacksonException | NumberFormatException e) {
            // NumberFormatException: a number no BigDecimal can hold, e.g. 1e-100000000000001 (found by fuzzing).
            return null;
        }
    }
}
