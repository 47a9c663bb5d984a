package dev.cryptopay.service.identity;

import dev.cryptopay.auth.Mode;
import dev.cryptopay.auth.internal.InternalHeaders;
import dev.cryptopay.auth.internal.InternalRequest;
import dev.cryptopay.auth.internal.InternalTokenVerification;
import dev.cryptopay.auth.internal.InternalTokenVerifier;
import dev.cryptopay.auth.internal.MerchantCredential;
import dev.cryptopay.auth.internal.MerchantIdentity;
import dev.cryptopay.service.error.ApiException;
import dev.cryptopay.service.error.ProblemWriter;
import dev.cryptopay.service.request.CachedBody;
import java.time.Clock;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.core.Ordered;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.server.PathContainer;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.web.reactive.result.method.annotation.RequestMappingHandlerMapping;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import org.springframework.web.util.pattern.PathPattern;
import org.springframework.web.util.pattern.PathPatternParser;
import reactor.core.publisher.Mono;

/**
 * Lets through only requests that carry a valid {@code X-Internal-Auth} token of a caller this service accepts, made
 * for this service, and only to routes that accept that caller. The token binds the caller, the audience, the merchant
 * id, mode and credential headers, the method, the raw path and query and a hash of the body, so anything changed on
 * the way is refused (401 {@code internal_auth_failed}); a valid token of a caller the route does not accept is 403
 * {@code internal_caller_not_allowed} (see {@link AllowedCallers}). The body is read once, within the body size
 * limit, and the handler gets exactly the bytes checked. Paths in {@code internal-auth.open-paths} need no token.
 */
public class InternalIdentityFilter implements WebFilter, Ordered {

    private static final Logger log = LoggerFactory.getLogger(InternalIdentityFilter.class);

    private final InternalTokenVerifier verifier;
    private final InternalAuthProperties properties;
    private final Clock clock;
    private final ProblemWriter problems;
    private final int maxBodyBytes;
    private final Supplier<Stream<RequestMappingHandlerMapping>> mappings;
    private final List<PathPattern> openPaths;
    private volatile RouteCallers routes;

    /**
     * @param verifier     the service's verifier ({@link InternalAuthProperties#verifier})
     * @param maxBodyBytes the service's body size limit ({@code spring.http.codecs.max-in-memory-size})
     * @param mappings     the service's annotated controllers, read for {@link AllowedCallers} on first use (they are
     *                     mapped by then)
     */
    public InternalIdentityFilter(
            InternalTokenVerifier verifier,
            InternalAuthProperties properties,
            Clock clock,
            ProblemWriter problems,
            int maxBodyBytes,
            Supplier<Stream<RequestMappingHandlerMapping>> mappings) {
        this.verifier = verifier;
        this.properties = properties;
        this.clock = clock;
        this.problems = problems;
        this.maxBodyBytes = maxBodyBytes;
        this.mappings = mappings;
        this.openPaths = properties.openPaths().stream()
                .map(PathPatternParser.defaultInstance::parse)
                .toList();
        if (verifier.callers().isEmpty()) {
            log.warn("No internal caller configured: every route but {} answers 401", properties.openPaths());
        }
    }

    @Override
    public int getOrder() {
        return Ordered.HIGHEST_PRECEDENCE + 10;
    }

    @Override
    public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
        PathContainer path = exchange.getRequest().getPath().pathWithinApplication();
        if (openPaths.stream().anyMatch(pattern -> pattern.matches(path))) {
            return chain.filter(exchange);
        }
        HttpHeaders headers = exchange.getRequest().getHeaders();
        MerchantIdentity identity;
        MerchantCredential credential;
        try {
            identity = identityFrom(headers);
            credential = credentialFrom(headers);
        } catch (IllegalArgumentException malformed) {
            return unauthorized(exchange, "malformed merchant identity headers");
        }
        String token = headers.getFirst(InternalHeaders.INTERNAL_AUTH);
        InternalTokenVerification precheck = verifier.precheck(token, clock.instant(), properties.maxAge());
        if (!precheck.isValid()) {
            return unauthorized(exchange, describe(precheck));
        }
        return CachedBody.read(exchange, maxBodyBytes)
                .flatMap(body -> verified(body, token, identity, credential, path, chain));
    }

    private Mono<Void> verified(
            CachedBody body,
            String token,
            MerchantIdentity identity,
            MerchantCredential credential,
            PathContainer path,
            WebFilterChain chain) {
        ServerWebExchange exchange = body.exchange();
        ServerHttpRequest request = exchange.getRequest();
        InternalRequest received;
        try {
            received = InternalRequest.of(
                    request.getMethod().name(),
                    request.getURI().getRawPath(),
                    request.getURI().getRawQuery(),
                    body.bytes());
        } catch (IllegalArgumentException unsignable) {
            return unauthorized(exchange, "request cannot carry a token: " + unsignable.getMessage());
        }
        InternalTokenVerification verification =
                verifier.verify(token, identity, credential, received, clock.instant(), properties.maxAge());
        if (!verification.isValid()) {
            return unauthorized(exchange, describe(verification));
        }
        Set<String> allowed = routes().allowed(request.getMethod(), path);
        if (!allowed.contains(verification.caller())) {
            log.warn(
                    "Refused {} {}: caller {} not allowed here (allowed: {})",
                    request.getMethod(),
                    request.getPath(),
                    verification.caller(),
                    allowed);
            return problems.write(
                    exchange,
                    new ApiException(
                            HttpStatus.FORBIDDEN,
                            "internal_caller_not_allowed",
                            "This route does not accept calls from this caller"));
        }
        if (identity != null) {
            exchange.getAttributes().put(CurrentMerchant.ATTRIBUTE, identity);
            if (credential != null) {
                exchange.getAttributes().put(CurrentMerchant.CREDENTIAL_ATTRIBUTE, credential);
            }
        }
        return chain.filter(exchange);
    }

    private RouteCallers routes() {
        RouteCallers current = routes;
        if (current == null) {
            current = RouteCallers.of(mappings.get());
            routes = current;
        }
        return current;
    }

    private static String describe(InternalTokenVerification verification) {
        return "internal token " + verification.outcome()
                + (verification.caller() == null ? "" : " (caller " + verification.caller() + ")");
    }

    private Mono<Void> unauthorized(ServerWebExchange exchange, String why) {
        log.warn(
                "Refused {} {}: {}",
                exchange.getRequest().getMethod(),
                exchange.getRequest().getPath(),
                why);
        return problems.write(
                exchange, ApiException.unauthorized("internal_auth_failed", "Requests must come through the gateway"));
    }

    /** The credential header: checked against the token, so any value read here is one the token must bind. */
    private static MerchantCredential credentialFrom(HttpHeaders headers) {
        String credential = headers.getFirst(InternalHeaders.MERCHANT_CREDENTIAL);
        return credential == null ? null : MerchantCredential.fromWireName(credential);
    }

    private static MerchantIdentity identityFrom(HttpHeaders headers) {
        String id = headers.getFirst(InternalHeaders.MERCHANT_ID);
        String mode = headers.getFirst(InternalHeaders.MERCHANT_MODE);
        if (id == null && mode == null) {
            return null;
        }
        if (id == null || mode == null) {
            throw new IllegalArgumentException("merchant id and mode go together");
        }
        return new MerchantIdentity(UUID.fromString(id), Mode.fromWireName(mode));
    }
}
