package dev.cryptopay.chainwatcher.scan;

import static dev.cryptopay.service.db.SqlValues.utc;

import dev.cryptopay.service.db.SqlValues;
import io.r2dbc.spi.Readable;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.stereotype.Repository;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/** Stores detected transfers and what was reported about them. */
@Repository
public class TransferRepository {

    private final DatabaseClient database;

    public TransferRepository(DatabaseClient database) {
        this.database = database;
    }

    /**
     * Records a transfer once. Seeing it again (a rescan after a reorganisation) updates its block and clears the
     * orphan mark, unless it has already failed: a failure that was reported is final.
     */
    Mono<Void> upsert(DetectedTransfer transfer, Instant now) {
        DatabaseClient.GenericExecuteSpec spec = database.sql("""
                        INSERT INTO detected_transfer (id, chain_id, tx_hash, log_index, direction, block_number,
                            block_hash, payment_link_id, network, token_contract, from_address, to_address,
                            amount_base_units, decimals, status, confirmations, created_at, updated_at)
                        VALUES (:id, :chain, :tx, :log, :direction, :block, :hash, :link, :network, :token, :from,
                            :to, :amount, :decimals, 'pending', 0, :now, :now)
                        ON CONFLICT (chain_id, tx_hash, log_index, direction) DO UPDATE
                            SET block_number = :block, block_hash = :hash, orphaned = FALSE, updated_at = :now
                            WHERE detected_transfer.status <> 'failed'""")
                .bind("id", transfer.id())
                .bind("chain", transfer.chainId())
                .bind("tx", transfer.txHash())
                .bind("log", transfer.logIndex())
                .bind("direction", transfer.direction())
                .bind("block", transfer.blockNumber())
                .bind("hash", transfer.blockHash())
                .bind("link", transfer.paymentLinkId())
                .bind("network", transfer.network())
                .bind("from", transfer.fromAddress())
                .bind("amount", new BigDecimal(transfer.amountBaseUnits()))
                .bind("decimals", transfer.decimals())
                .bind("now", utc(now));
        spec = SqlValues.bind(spec, "to", transfer.toAddress(), String.class);
        // A native-coin transfer has no token contract.
        return SqlValues.bind(spec, "token", transfer.tokenContract(), String.class)
                .then();
    }

    /** Marks transfers in blocks after the fork point as orphaned until a rescan finds them again. */
    Mono<Long> orphanAfter(long chainId, long forkPoint, Instant now) {
        return database.sql("UPDATE detected_transfer SET orphaned = TRUE, updated_at = :now "
                        + "WHERE chain_id = :chain AND block_number > :fork AND status <> 'failed'")
                .bind("now", utc(now))
                .bind("chain", chainId)
                .bind("fork", forkPoint)
                .fetch()
                .rowsUpdated();
    }

    /**
     * Settles orphans the rescan did not find: one never reported is forgotten, one reported becomes failed (and is
     * reported so).
     */
    Mono<Void> settleOrphans(long chainId, Instant now) {
        return database.sql("DELETE FROM detected_transfer WHERE chain_id = :chain AND orphaned "
                        + "AND reported_status IS NULL")
                .bind("chain", chainId)
                .then()
                .then(database.sql("UPDATE detected_transfer SET status = 'failed', orphaned = FALSE, "
                                + "updated_at = :now WHERE chain_id = :chain AND orphaned")
                        .bind("now", utc(now))
                        .bind("chain", chainId)
                        .then());
    }

    /** Counts confirmations of pending transfers against the head; enough of them confirm the transfer. */
    Mono<Void> confirm(long chainId, long head, int required, Instant now) {
        return database.sql("""
                        UPDATE detected_transfer
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

    /** Incoming transfers confirmed but not valued in USD yet (valued once, at confirmation). */
    Flux<DetectedTransfer> unpriced(long chainId) {
        return database.sql("""
                        SELECT * FROM detected_transfer
                        WHERE chain_id = :chain AND direction = 'in' AND status = 'confirmed' AND usd_source IS NULL
                        ORDER BY block_number, log_index
                        LIMIT 500""")
                .bind("chain", chainId)
                .map(TransferRepository::row)
                .all();
    }

    /** Stores an incoming transfer's USD value at confirmation ({@code usd} null when unknown), once. */
    Mono<Void> priced(UUID id, BigDecimal usd, String source) {
        DatabaseClient.GenericExecuteSpec spec = database.sql("UPDATE detected_transfer SET usd_value = :usd, "
                        + "usd_source = :source WHERE id = :id AND usd_source IS NULL")
                .bind("source", source)
                .bind("id", id);
        return SqlValues.bind(spec, "usd", usd, BigDecimal.class).then();
    }

    /**
     * Transfers whose state payment-links-service has not acknowledged yet, oldest first; one whose report was refused
     * only once {@code retryRefusedAfter} has passed since. An incoming transfer confirmed but not valued in USD yet
     * waits for its value, which its confirmed report carries.
     */
    Flux<DetectedTransfer> unreported(long chainId, Instant now, Duration retryRefusedAfter) {
        return database.sql("""
                        SELECT * FROM detected_transfer
                        WHERE chain_id = :chain AND NOT orphaned
                          AND (reported_status IS DISTINCT FROM status
                               OR reported_confirmations IS DISTINCT FROM confirmations)
                          AND (refused_at IS NULL OR refused_at <= :refusedBefore)
                          AND NOT (direction = 'in' AND status = 'confirmed' AND usd_source IS NULL)
                        ORDER BY block_number, log_index
                        LIMIT 500""")
                .bind("chain", chainId)
                .bind("refusedBefore", utc(now.minus(retryRefusedAfter)))
                .map(TransferRepository::row)
                .all();
    }

    Mono<Void> markReported(UUID id, String status, int confirmations) {
        return database.sql("UPDATE detected_transfer SET reported_status = :status, "
                        + "reported_confirmations = :confirmations, refused_at = NULL WHERE id = :id")
                .bind("status", status)
                .bind("confirmations", confirmations)
                .bind("id", id)
                .then();
    }

    /** Notes that payment-links-service refused the transfer's report: it is sent again, but not before a while. */
    Mono<Void> markRefused(UUID id, Instant now) {
        return database.sql("UPDATE detected_transfer SET refused_at = :now WHERE id = :id")
                .bind("now", utc(now))
                .bind("id", id)
                .then();
    }

    /** Every transfer detected for a link, to and from its deposit address (for tests and operators). */
    public Flux<DetectedTransfer> ofLink(UUID paymentLinkId) {
        return database.sql("SELECT * FROM detected_transfer WHERE payment_link_id = :link "
                        + "ORDER BY block_number, log_index, direction")
                .bind("link", paymentLinkId)
                .map(TransferRepository::row)
                .all();
    }

    private static DetectedTransfer row(Readable row) {
        return new DetectedTransfer(
                row.get("id", UUID.class),
                row.get("chain_id", Long.class),
                row.get("tx_hash", String.class),
                row.get("log_index", Integer.class),
                row.get("direction", String.class),
                row.get("block_number", Long.class),
                row.get("block_hash", String.class),
                row.get("payment_link_id", UUID.class),
                row.get("network", String.class),
                row.get("token_contract", String.class),
                row.get("from_address", String.class),
                row.get("to_address", String.class),
                row.get("amount_base_units", BigDecimal.class).toBigIntegerExact(),
                row.get("decimals", Integer.class),
                row.get("status", String.class),
                row.get("confirmations", Integer.class),
                row.get("orphaned", Boolean.class),
                row.get("usd_value", BigDecimal.class),
                row.get("usd_source", String.class),
                row.get("reported_status", String.class),
                row.get("reported_confirmations", Integer.class));
    }
}
