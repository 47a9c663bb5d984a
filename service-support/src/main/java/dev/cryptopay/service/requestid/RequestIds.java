package dev.cryptopay.service.requestid;

import org.springframework.web.server.ServerWebExchange;

/** Reads the request id {@link RequestIdFilter} stored on the exchange. */
public final class RequestIds {

    public static final String HEADER = "X-Request-Id";
    static final String ATTRIBUTE = RequestIds.class.getName() + ".id";

    private RequestIds() {}

    /** The request id of this exchange, or null before the filter ran. */
    public static String of(ServerWebExchange exchange) {
        return exchange.getAttribute(ATTRIBUTE);
    }
}
