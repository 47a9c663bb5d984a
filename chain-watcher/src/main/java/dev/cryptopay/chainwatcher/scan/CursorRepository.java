package dev.cryptopay.chainwatcher.scan;

import static dev.cryptopay.service.db.SqlValues.utc;

import dev.cryptopay.chainwatcher.scan.ChainClient.BlockHeader;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.stereotype.Repository;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * A chain's scan position, the lease that lets one instance at a time scan it, and the hashes of recent blocks. The
 * lease is what keeps several instances from reporting the same transfer twice at once (payment-links-service is
 * also idempotent on the transaction, so a lease that lapses mid-pass costs a repeated report at worst).
 */
@Repository
class CursorRepository {

    private final DatabaseClient database;

    CursorRepository(DatabaseClient database) {
        this.database = database;
    }

    /**
     * A held lease: the next block to scan, and the lease's epoch, which grows each time the lease changes hands (so
     * an instance knows whether another one held the chain since its own last pass).
     */
    record Lease(long nextBlock, long epoch) {}

    /**
     * Takes or renews the chain's lease for {@code instance}; answers it, or empty when another instance holds the
     * lease. A chain seen for the first time starts at {@code firstBlock}.
     */
    Mono<Lease> lease(long chainId, String instance, long firstBlock, Instant now, Duration leaseDuration) {
        return database.sql("""
                        INSERT INTO chain_cursor (chain_id, next_block, leased_by, lease_until, updated_at)
                        VALUES (:chain, :first, :instance, :until, :now)
                        ON CONFLICT (chain_id) DO UPDATE SET leased_by = :instance, lease_until = :until,
                            lease_epoch = chain_cursor.lease_epoch
                                + CASE WHEN chain_cursor.leased_by = :instance THEN 0 ELSE 1 END
                        WHERE chain_cursor.leased_by = :instance OR chain_cursor.lease_until IS NULL
                              OR chain_cursor.lease_until <= :now
                        RETURNING next_block, lease_epoch""")
                .bind("chain", chainId)
                .bind("first", firstBlock)
                .bind("instance", instance)
                .bind("until", utc(now.plus(leaseDuration)))
                .bind("now", utc(now))
                .map(row -> new Lease(row.get("next_block", Long.class), row.get("lease_epoch", Long.class)))
                .one();
    }

    Mono<Void> advance(long chainId, long nextBlock, Instant now) {
        return database.sql("UPDATE chain_cursor SET next_block = :next, updated_at = :now WHERE chain_id = :chain")
                .bind("next", nextBlock)
                .bind("now", utc(now))
                .bind("chain", chainId)
                .then();
    }

    /** Stored hashes from the newest down, at most {@code limit}. */
    Flux<BlockHeader> recentBlocks(long chainId, int limit) {
        return database.sql("SELECT block_number, block_hash, block_time FROM chain_block WHERE chain_id = :chain "
                        + "ORDER BY block_number DESC LIMIT :limit")
                .bind("chain", chainId)
                .bind("limit", limit)
                .map(row -> new BlockHeader(
                        row.get("block_number", Long.class),
                        row.get("block_hash", String.class),
                        row.get("block_time", OffsetDateTime.class).toInstant()))
                .all();
    }

    Mono<Void> saveBlock(long chainId, BlockHeader block) {
        return database.sql("""
                        INSERT INTO chain_block (chain_id, block_number, block_hash, block_time)
                        VALUES (:chain, :number, :hash, :time)
                        ON CONFLICT (chain_id, block_number) DO UPDATE SET block_hash = :hash, block_time = :time""")
                .bind("chain", chainId)
                .bind("number", block.number())
                .bind("hash", block.hash())
                .bind("time", utc(block.time()))
                .then();
    }

    /** Forgets blocks after {@code forkPoint} (a reorganisation replaced them) or before {@code oldest}. */
    Mono<Void> forget(long chainId, long forkPoint, long oldest) {
        return database.sql("DELETE FROM chain_block WHERE chain_id = :chain AND (block_number > :fork "
                        + "OR block_number < :oldest)")
                .bind("chain", chainId)
                .bind("fork", forkPoint)
                .bind("oldest", oldest)
                .then();
    }
}
