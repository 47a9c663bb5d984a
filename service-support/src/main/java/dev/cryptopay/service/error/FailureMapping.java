package dev.cryptopay.service.error;

import org.springframework.web.server.ServerWebExchange;

/**
 * What a failure of an application's own kind means to a client, for failures the shared mappings cannot know (a
 * proxy's unreachable upstream, say). Given to {@link ProblemExceptionHandler}, which asks it before its own mappings
 * and renders the answer like any other, so the body, {@code Retry-After} and the fallbacks stay in one place.
 */
@FunctionalInterface
public interface FailureMapping {

    /** The answer for {@code failure}, or null when it is not of this mapping's kind. */
    ApiException map(ServerWebExchange exchange, Throwable failure);
}
