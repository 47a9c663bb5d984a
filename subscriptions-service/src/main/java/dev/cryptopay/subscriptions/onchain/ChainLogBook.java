package dev.cryptopay.subscriptions.onchain;

import static dev.cryptopay.service.db.SqlValues.instant;
import static dev.cryptopay.service.db.SqlValues.utc;

import dev.cryptopay.service.db.SqlValues;
import io.r2dbc.spi.Readable;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.List;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.stereotype.Repository;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * The logs the chain watcher reported, each once per (chain, transaction, log index), with what each did. A log no
 * link knew when it came stays {@code unmatched} until the enrolment naming its transaction (or the subscription it
 * belongs to) applies it.
 */
@Repository
public class ChainLogBook {

    private static final String COLUMNS = """
            chain_id, tx_hash, log_index, contract, block_number, block_hash, block_time, topics, data, confirmations,
            removed, outcome""";

    private final DatabaseClient database;

    public ChainLogBook(DatabaseClient database) {
        this.database = database;
    }

    /**
     * A log as stored: null {@code outcome} and false {@code known} for one seen for the first time (now stored,
     * its outcome still to be set).
     */
    public record Entry(ChainLog log, boolean known, LogOutcome outcome, boolean removed) {}

    /** Stores a log seen for the first time, row-locked for its outcome; answers the stored one otherwise. */
    public Mono<Entry> receive(ChainLog log, String subscriptionId, Instant now) {
        var spec = database.sql("""
                        INSERT INTO chain_log (chain_id, tx_hash, log_index, contract, block_number, block_hash,
                            block_time, topics, data, confirmations, subscription_id, outcome, received_at, updated_at)
                        VALUES (:chain, :hash, :index, :contract, :block, :blockHash, :blockTime, :topics, :data,
                            :confirmations, :subscription, 'unmatched', :now, :now)
                        ON CONFLICT DO NOTHING""")
                .bind("chain", log.chainId())
                .bind("hash", log.txHash())
                .bind("index", log.logIndex())
                .bind("contract", log.contract())
                .bind("block", log.blockNumber())
                .bind("blockHash", log.blockHash())
                .bind("blockTime", utc(log.blockTime()))
                .bind("topics", log.topics().toArray(new String[0]))
                .bind("data", log.data())
                .bind("confirmations", log.confirmations())
                .bind("now", utc(now));
        return SqlValues.bind(spec, "subscription", subscriptionId, String.class)
                .fetch()
                .rowsUpdated()
                .flatMap(inserted -> inserted > 0
                        ? Mono.just(new Entry(log, false, null, false))
                        : lock(log)
                                .map(stored -> new Entry(
                                        log, true, LogOutcome.fromWireName(stored.outcome()), stored.removed())));
    }

    public Mono<Void> settle(ChainLog log, LogOutcome outcome, Instant now) {
        return database.sql("UPDATE chain_log SET outcome = :outcome, updated_at = :now"
                        + " WHERE chain_id = :chain AND tx_hash = :hash AND log_index = :index")
                .bind("outcome", outcome.wireName())
                .bind("now", utc(now))
                .bind("chain", log.chainId())
                .bind("hash", log.txHash())
                .bind("index", log.logIndex())
                .then();
    }

    public Mono<Void> markRemoved(ChainLog log, Instant now) {
        return database.sql("UPDATE chain_log SET removed = TRUE, updated_at = :now"
                        + " WHERE chain_id = :chain AND tx_hash = :hash AND log_index = :index")
                .bind("now", utc(now))
                .bind("chain", log.chainId())
                .bind("hash", log.txHash())
                .bind("index", log.logIndex())
                .then();
    }

    /** Unmatched logs of this transaction, in the order the chain wrote them. */
    public Flux<ChainLog> unmatchedIn(String txHash) {
        return database.sql("SELECT " + COLUMNS + " FROM chain_log WHERE lower(tx_hash) = lower(:hash)"
                        + " AND outcome = 'unmatched' AND NOT removed ORDER BY chain_id, log_index")
                .bind("hash", txHash)
                .map(ChainLogBook::read)
                .all();
    }

    /** Unmatched logs of an on-chain subscription, in the order the chain wrote them. */
    public Flux<ChainLog> unmatchedOf(String subscriptionId) {
        return database.sql("SELECT " + COLUMNS + " FROM chain_log WHERE subscription_id = :id"
                        + " AND outcome = 'unmatched' AND NOT removed ORDER BY block_number, log_index")
                .bind("id", subscriptionId)
                .map(ChainLogBook::read)
                .all();
    }

    private record Stored(String outcome, boolean removed) {}

    private Mono<Stored> lock(ChainLog log) {
        return database.sql("SELECT outcome, removed FROM chain_log"
                        + " WHERE chain_id = :chain AND tx_hash = :hash AND log_index = :index FOR UPDATE")
                .bind("chain", log.chainId())
                .bind("hash", log.txHash())
                .bind("index", log.logIndex())
                .map(row -> new Stored(row.get("outcome", String.class), row.get("removed", Boolean.class)))
                .one();
    }

    private static ChainLog read(Readable row) {
        return new ChainLog(
                row.get("chain_id", Long.class),
                row.get("contract", String.class),
                row.get("tx_hash", String.class),
                row.get("log_index", Integer.class),
                row.get("block_number", Long.class),
                row.get("block_hash", String.class),
                instant(row.get("block_time", OffsetDateTime.class)),
                List.of(row.get("topics", String[].class)),
                row.get("data", String.class),
                row.get("confirmations", Integer.class),
                row.get("removed", Boolean.class));
    }
}
