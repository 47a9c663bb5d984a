package dev.cryptopay.gateway.routing;

import org.springframework.cloud.gateway.filter.RouteToRequestUrlFilter;
import org.springframework.core.Ordered;

/**
 * Order of the gateway's own filters among Spring Cloud Gateway's. Authentication, limits and replay checks run before
 * any built-in filter touches the request (the path still has its {@code /api/v1} prefix then); identity headers are
 * added after the upstream URL is known, because the token is bound to the path the service receives.
 */
public final class FilterOrder {

    public static final int PRE_AUTH_LIMIT = -350;
    public static final int AUTHENTICATION = -300;
    /** The security log: after authentication (it names the key), around everything after it. */
    public static final int SECURITY_LOG = -250;

    public static final int RATE_LIMIT = -200;
    /** The customer status streams' places: after the rate limit has counted the request. */
    public static final int STREAM_LIMIT = -190;

    public static final int REPLAY_GUARD = -150;
    public static final int IDENTITY = RouteToRequestUrlFilter.ROUTE_TO_URL_FILTER_ORDER + 1;
    /** The routes the gateway answers itself ({@link AnsweringFilter}): last, before any routing filter. */
    public static final int ANSWER = Ordered.LOWEST_PRECEDENCE - 100;

    public static final int UPSTREAM_TIMING = Ordered.LOWEST_PRECEDENCE - 1;

    private FilterOrder() {}
}
