package dev.cryptopay.service.db;

import reactor.core.publisher.Mono;

/**
 * Runs a database read to its end even when its subscriber goes away. Cancelling an R2DBC PostgreSQL query while its
 * rows are arriving can leave the pooled connection waiting on a conversation nobody reads, and every later query on
 * that connection hangs. Reads that are cancelled as a matter of course (a polling stream the client closes, a
 * timeout) go through here; the pool's validation then only has to catch the rare rest.
 */
public final class Uncancellable {

    private Uncancellable() {}

    /** The same result; cancelling the returned Mono no longer cancels {@code read}, which completes on its own. */
    public static <T> Mono<T> read(Mono<T> read) {
        return Mono.fromFuture(read::toFuture, true);
    }
}
