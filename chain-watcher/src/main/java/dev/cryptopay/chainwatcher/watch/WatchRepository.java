package dev.cryptopay.chainwatcher.watch;

import static dev.cryptopay.service.db.SqlValues.utc;

import dev.cryptopay.service.db.SqlValues;
import io.r2dbc.spi.Readable;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.UUID;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.stereotype.Repository;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/** Stores the watch list. */
@Repository
public class WatchRepository {

    private final DatabaseClient database;

    public WatchRepository(DatabaseClient database) {
        this.database = database;
    }

    /** Adds an address once; a redelivered event changes nothing. Answers whether it was new. */
    public Mono<Boolean> insertOnce(WatchedAddress watch, Instant now) {
        return insert(watch, now, "ON CONFLICT DO NOTHING");
    }

    /**
     * Keeps watching a link's deposit address at least until {@code watch.watchUntil()} (a refund's expiry + the late
     * window): extends the watch when it ends sooner, or watches the address again when the watch was forgotten
     * (with {@code watch}'s asset and amount). An extended or new watch is searched again from
     * {@code watch.linkCreatedAt()} (the refund's announcement), like a new address, so a transfer out made before the
     * scanner learned of it is found; the in-memory list takes the new end with it. A redelivered event changes
     * nothing. Answers whether anything changed.
     */
    public Mono<Boolean> renew(WatchedAddress watch, Instant now) {
        return insert(watch, now, """
                ON CONFLICT (payment_link_id) DO UPDATE
                    SET watch_until = EXCLUDED.watch_until, backfilled = FALSE,
                        link_created_at = EXCLUDED.link_created_at
                    WHERE watched_address.watch_until < EXCLUDED.watch_until""");
    }

    /** Inserts {@code watch} with {@code onConflict} deciding what an existing watch of the link becomes. */
    private Mono<Boolean> insert(WatchedAddress watch, Instant now, String onConflict) {
        DatabaseClient.GenericExecuteSpec spec = database.sql("""
                        INSERT INTO watched_address (payment_link_id, chain_id, network, deposit_address, token_contract,
                            decimals, amount_base_units, expires_at, watch_until, link_created_at, created_at)
                        VALUES (:link, :chain, :network, :address, :token, :decimals, :amount, :expires, :until,
                            :linkCreated, :now)
                        """ + onConflict)
                .bind("link", watch.paymentLinkId())
                .bind("chain", watch.chainId())
                .bind("network", watch.network())
                .bind("address", watch.depositAddress())
                .bind("decimals", watch.decimals())
                .bind("amount", new BigDecimal(watch.amountBaseUnits()))
                .bind("expires", utc(watch.expiresAt()))
                .bind("until", utc(watch.watchUntil()))
                .bind("now", utc(now));
        spec = SqlValues.bind(spec, "linkCreated", watch.linkCreatedAt());
        // A payment in the chain's native coin has no token contract.
        return SqlValues.bind(spec, "token", watch.tokenContract(), String.class)
                .fetch()
                .rowsUpdated()
                .map(rows -> rows > 0);
    }

    /** The addresses of a chain still watched at {@code now}. */
    public Flux<WatchedAddress> active(long chainId, Instant now) {
        return database.sql("SELECT * FROM watched_address WHERE chain_id = :chain AND watch_until > :now")
                .bind("chain", chainId)
                .bind("now", utc(now))
                .map(WatchRepository::row)
                .all();
    }

    /**
     * The addresses of a chain still watched at {@code now} whose earlier blocks were not searched yet: those that
     * arrived since the scanner last loaded the list (a partial index keeps this cheap however long the list is).
     */
    public Flux<WatchedAddress> fresh(long chainId, Instant now) {
        return database.sql("SELECT * FROM watched_address WHERE chain_id = :chain AND NOT backfilled "
                        + "AND watch_until > :now")
                .bind("chain", chainId)
                .bind("now", utc(now))
                .map(WatchRepository::row)
                .all();
    }

    /** Notes that the blocks before these addresses arrived were searched. */
    public Mono<Void> markBackfilled(java.util.List<UUID> links) {
        if (links.isEmpty()) {
            return Mono.empty();
        }
        return database.sql("UPDATE watched_address SET backfilled = TRUE WHERE payment_link_id = ANY(:links)")
                .bind("links", links.toArray(UUID[]::new))
                .then();
    }

    /** Forgets addresses whose watch ended, so the list stays as small as the open links. */
    public Mono<Long> prune(Instant now) {
        return database.sql("DELETE FROM watched_address WHERE watch_until <= :now")
                .bind("now", utc(now))
                .fetch()
                .rowsUpdated();
    }

    private static WatchedAddress row(Readable row) {
        return new WatchedAddress(
                row.get("payment_link_id", UUID.class),
                row.get("chain_id", Long.class),
                row.get("network", String.class),
                row.get("deposit_address", String.class),
                row.get("token_contract", String.class),
                row.get("decimals", Integer.class),
                row.get("amount_base_units", BigDecimal.class).toBigIntegerExact(),
                row.get("expires_at", OffsetDateTime.class).toInstant(),
                row.get("watch_until", OffsetDateTime.class).toInstant(),
                row.get("backfilled", Boolean.class),
                SqlValues.instant(row.get("link_created_at", OffsetDateTime.class)));
    }
}
