package dev.cryptopay.service.error;

import dev.cryptopay.service.requestid.RequestIds;
import io.r2dbc.spi.R2dbcNonTransientResourceException;
import io.r2dbc.spi.R2dbcTransientException;
import java.net.ConnectException;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.dao.TransientDataAccessException;
import org.springframework.web.server.ServerWebExchange;
import reactor.pool.PoolAcquireTimeoutException;

/** Questions about a failure's cause chain, asked when mapping it to what a client sees. */
public final class Failures {

    private Failures() {}

    /** Whether {@code failure} or any of its causes is a {@code type}. */
    public static boolean causedBy(Throwable failure, Class<? extends Throwable> type) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (type.isInstance(t)) {
                return true;
            }
            if (t.getCause() == t) {
                return false;
            }
        }
        return false;
    }

    /**
     * A lost or refused database connection, a pool that could not hand one out in time, or a transient failure such
     * as a deadlock: nothing is wrong with the request, so the answer is a 503 with {@code Retry-After}, never a 500,
     * and a read may be tried once more.
     */
    public static boolean databaseUnavailable(Throwable failure) {
        return causedBy(failure, DataAccessResourceFailureException.class)
                || causedBy(failure, TransientDataAccessException.class)
                || causedBy(failure, R2dbcNonTransientResourceException.class)
                || causedBy(failure, R2dbcTransientException.class)
                || causedBy(failure, PoolAcquireTimeoutException.class)
                || causedBy(failure, ConnectException.class);
    }

    /** Where a failure happened, for its log line: {@code GET /path (request <id>)}. */
    public static String where(ServerWebExchange exchange) {
        return exchange.getRequest().getMethod() + " " + exchange.getRequest().getPath() + " (request "
                + RequestIds.of(exchange) + ")";
    }
}
