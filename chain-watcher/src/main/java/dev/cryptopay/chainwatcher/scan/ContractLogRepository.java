package dev.cryptopay.chainwatcher.scan;

import static dev.cryptopay.service.db.SqlValues.utc;

import io.r2dbc.spi.Readable;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.List;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.stereotype.Repository;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Stores the subscription contracts' logs and what was reported about them. Statuses move as a transfer's do (pending,
 * confirmed by enough blocks, failed when a reorganisation removed it), but only two facts are reported: a log
 * confirmed, and a log reported confirmed that later failed.
 */
@Repository
class ContractLogRepository {

    /** Logs with a report due: confirmed and not reported so, or reported confirmed and failed since. */
    private static final String REPORT_DUE = """
            NOT orphaned AND ((status = 'confirmed' AND reported_status IS DISTINCT FROM 'confirmed')
                              OR (status = 'failed' AND reported_status = 'confirmed'))""";

    private final DatabaseClient database;

    ContractLogRepository(DatabaseClient database) {
        this.database = database;
    }

    /**
     * Records a log once. Seeing it again (a rescan after a reorganisation) clears the orphan mark and takes the block
     * it is in now; found in another block, or after it had failed, it counts its confirmations again from there, and
     * the keeper reads it again ({@code keeper_read}).
     */
    Mono<Void> upsert(ContractLog log, Instant now) {
        return database.sql("""
                        INSERT INTO contract_log (chain_id, contract, tx_hash, log_index, block_number, block_hash,
                            block_time, topics, data, status, confirmations, created_at, updated_at)
                        VALUES (:chain, :contract, :tx, :log, :block, :hash, :time, :topics, :data, 'pending', 0,
                            :now, :now)
                        ON CONFLICT (chain_id, tx_hash, log_index) DO UPDATE
                            SET status = CASE WHEN contract_log.status = 'failed'
                                                   OR contract_log.block_hash <> EXCLUDED.block_hash
                                              THEN 'pending' ELSE contract_log.status END,
                                confirmations = CASE WHEN contract_log.status = 'failed'
                                                          OR contract_log.block_hash <> EXCLUDED.block_hash
                                                     THEN 0 ELSE contract_log.confirmations END,
                                keeper_read = contract_log.keeper_read AND contract_log.status <> 'failed'
                                              AND contract_log.block_hash = EXCLUDED.block_hash,
                                block_number = EXCLUDED.block_number, block_hash = EXCLUDED.block_hash,
                                block_time = EXCLUDED.block_time, topics = EXCLUDED.topics, data = EXCLUDED.data,
                                orphaned = FALSE, updated_at = :now""")
                .bind("chain", log.chainId())
                .bind("contract", log.contract())
                .bind("tx", log.txHash())
                .bind("log", log.logIndex())
                .bind("block", log.blockNumber())
                .bind("hash", log.blockHash())
                .bind("time", utc(log.blockTime()))
                .bind("topics", log.topics().toArray(String[]::new))
                .bind("data", log.data())
                .bind("now", utc(now))
                .then();
    }

    /**
     * Marks logs in blocks after the fork point as orphaned until a rescan finds them again; the keeper reads their
     * subscriptions' state again (a collect may have been undone).
     */
    Mono<Void> orphanAfter(long chainId, long forkPoint, Instant now) {
        return database.sql("UPDATE contract_log SET orphaned = TRUE, keeper_read = FALSE, updated_at = :now "
                        + "WHERE chain_id = :chain AND block_number > :fork AND status <> 'failed'")
                .bind("now", utc(now))
                .bind("chain", chainId)
                .bind("fork", forkPoint)
                .then();
    }

    /** Orphans the rescan to the head did not find again are no longer on the chain: failed. */
    Mono<Void> settleOrphans(long chainId, Instant now) {
        return database.sql("UPDATE contract_log SET status = 'failed', confirmations = 0, orphaned = FALSE, "
                        + "updated_at = :now WHERE chain_id = :chain AND orphaned")
                .bind("now", utc(now))
                .bind("chain", chainId)
                .then();
    }

    /** Counts confirmations of pending logs against the head; enough of them confirm the log. */
    Mono<Void> confirm(long chainId, long head, int required, Instant now) {
        return database.sql("""
                        UPDATE contract_log
                        SET confirmations = LEAST(:head - block_number + 1, :required),
                            status = CASE WHEN :head - block_number + 1 >= :required THEN 'confirmed' ELSE 'pending' END,
                            updated_at = :now
                        WHERE chain_id = :chain AND status = 'pending' AND NOT orphaned""")
                .bind("head", head)
                .bind("required", required)
                .bind("now", utc(now))
                .bind("chain", chainId)
                .then();
    }

    /**
     * Logs with a report due, in the order they are reported: removals first (they undo what the chain no longer
     * shows), then confirmed logs, each in (block number, log index) order; one whose report was refused only once
     * {@code retryRefusedAfter} has passed since.
     */
    Flux<ContractLog> unreported(long chainId, Instant now, Duration retryRefusedAfter) {
        return database.sql("SELECT * FROM contract_log WHERE chain_id = :chain AND " + REPORT_DUE
                        + " AND (refused_at IS NULL OR refused_at <= :refusedBefore)"
                        + " ORDER BY status = 'confirmed', block_number, log_index LIMIT 500")
                .bind("chain", chainId)
                .bind("refusedBefore", utc(now.minus(retryRefusedAfter)))
                .map(ContractLogRepository::row)
                .all();
    }

    /** Records that subscriptions-service acknowledged the log as {@code status} (confirmed, or failed: removed). */
    Mono<Void> markReported(ContractLog log) {
        return database.sql("UPDATE contract_log SET reported_status = :status, refused_at = NULL "
                        + "WHERE chain_id = :chain AND tx_hash = :tx AND log_index = :log")
                .bind("status", log.status())
                .bind("chain", log.chainId())
                .bind("tx", log.txHash())
                .bind("log", log.logIndex())
                .then();
    }

    /** Notes that subscriptions-service refused the log's report: it is sent again, but not before a while. */
    Mono<Void> markRefused(ContractLog log, Instant now) {
        return database.sql("UPDATE contract_log SET refused_at = :now "
                        + "WHERE chain_id = :chain AND tx_hash = :tx AND log_index = :log")
                .bind("now", utc(now))
                .bind("chain", log.chainId())
                .bind("tx", log.txHash())
                .bind("log", log.logIndex())
                .then();
    }

    /** The logs of one transaction (for tests and operators). */
    Flux<ContractLog> ofTransaction(long chainId, String txHash) {
        return database.sql("SELECT * FROM contract_log WHERE chain_id = :chain AND tx_hash = :tx ORDER BY log_index")
                .bind("chain", chainId)
                .bind("tx", txHash)
                .map(ContractLogRepository::row)
                .all();
    }

    private static ContractLog row(Readable row) {
        return new ContractLog(
                row.get("chain_id", Long.class),
                row.get("contract", String.class),
                row.get("tx_hash", String.class),
                row.get("log_index", Integer.class),
                row.get("block_number", Long.class),
                row.get("block_hash", String.class),
                row.get("block_time", OffsetDateTime.class).toInstant(),
                List.of(row.get("topics", String[].class)),
                row.get("data", String.class),
                row.get("status", String.class),
                row.get("confirmations", Integer.class),
                row.get("orphaned", Boolean.class),
                row.get("reported_status", String.class));
    }
}
