package dev.cryptopay.chainwatcher.scan;

import java.io.IOException;
import java.util.List;
import java.util.Locale;

/** A JSON-RPC error the node answered (code and message), as opposed to a timeout or a connection failure. */
class RpcError extends IOException {

    /**
     * Words of the messages nodes and providers refuse an eth_getLogs with when its range or its result is too large:
     * geth's -32005 "query returned more than 10000 results", "block range is too large", "exceed maximum block range",
     * Alchemy's "Log response size exceeded", Erigon's "query exceeds max results", "too many blocks/logs", and -32602
     * "invalid params" naming the range. A rate limit ("request rate exceeded") is none of these.
     */
    private static final List<String> TOO_LARGE = List.of(
            "more than", "range", "too large", "too many", "response size", "max results", "result set", "too big");

    private final int code;

    RpcError(int code, String message) {
        super("RPC error " + code + ": " + message);
        this.code = code;
    }

    int code() {
        return code;
    }

    /** Whether the node refused an eth_getLogs because its block range or its result was too large. */
    boolean rangeTooLarge() {
        String message = getMessage().toLowerCase(Locale.ROOT);
        if (message.contains("rate limit") || message.contains("rate exceeded")) {
            return false;
        }
        return TOO_LARGE.stream().anyMatch(message::contains);
    }
}
