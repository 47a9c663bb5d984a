package dev.cryptopay.chainwatcher.keeper;

import static dev.cryptopay.service.db.SqlValues.bind;
import static dev.cryptopay.service.db.SqlValues.instant;
import static dev.cryptopay.service.db.SqlValues.utc;

import io.r2dbc.spi.Readable;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.Optional;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.r2dbc.core.DatabaseClient.GenericExecuteSpec;
import org.springframework.stereotype.Repository;
import org.springframework.transaction.reactive.TransactionalOperator;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * The keeper's transactions. A transaction is inserted before it is broadcast; the unique indexes (one newest
 * transaction per nonce, one outstanding collect per subscription) make a second instance's insert fail, so it never
 * broadcasts a duplicate.
 */
@Repository
class KeeperTransactionRepository {

    private final DatabaseClient database;
    private final TransactionalOperator transactional;

    KeeperTransactionRepository(DatabaseClient database, TransactionalOperator transactional) {
        this.database = database;
        this.transactional = transactional;
    }

    /**
     * Records {@code replacement} (same nonce) and marks {@code replaced} so, in one database transaction; answers
     * false, recording nothing, when {@code replaced} is no longer the pending one (another pass settled it).
     */
    Mono<Boolean> recordReplacement(KeeperTransaction replaced, KeeperTransaction replacement) {
        Mono<Boolean> work = database.sql("UPDATE keeper_transaction SET status = 'replaced', updated_at = :now "
                        + "WHERE chain_id = :chain AND tx_hash = :tx AND status = 'pending'")
                .bind("now", utc(replacement.createdAt()))
                .bind("chain", replaced.chainId())
                .bind("tx", replaced.txHash())
                .fetch()
                .rowsUpdated()
                .flatMap(updated -> updated == 1 ? record(replacement).thenReturn(true) : Mono.just(false));
        return transactional.transactional(work);
    }

    /** A node took {@code tx} (its broadcast answered the hash, or a node knows it). */
    Mono<Void> accepted(KeeperTransaction tx) {
        return database.sql("UPDATE keeper_transaction SET accepted = TRUE WHERE chain_id = :chain AND tx_hash = :tx")
                .bind("chain", tx.chainId())
                .bind("tx", tx.txHash())
                .then();
    }

    /** Transactions not settled yet (pending, replaced, or mined and not deep enough), by keeper and nonce. */
    Flux<KeeperTransaction> open(long chainId, int limit) {
        return database.sql("SELECT * FROM keeper_transaction WHERE chain_id = :chain "
                        + "AND status IN ('pending', 'replaced', 'mined') "
                        + "ORDER BY keeper_address, nonce, max_fee_per_gas LIMIT :limit")
                .bind("chain", chainId)
                .bind("limit", limit)
                .map(KeeperTransactionRepository::row)
                .all();
    }

    /** The transaction is in {@code block} (its receipt says whether it succeeded). */
    Mono<Void> mined(KeeperTransaction tx, long block, boolean succeeded, Instant now) {
        return database.sql("UPDATE keeper_transaction SET status = 'mined', block_number = :block, "
                        + "succeeded = :succeeded, updated_at = :now WHERE chain_id = :chain AND tx_hash = :tx")
                .bind("block", block)
                .bind("succeeded", succeeded)
                .bind("now", utc(now))
                .bind("chain", tx.chainId())
                .bind("tx", tx.txHash())
                .then();
    }

    /** Moves a transaction to {@code status}: confirmed, abandoned, or pending again (its block was replaced). */
    Mono<Void> settle(KeeperTransaction tx, String status, Instant now) {
        return database.sql("UPDATE keeper_transaction SET status = :status, updated_at = :now "
                        + "WHERE chain_id = :chain AND tx_hash = :tx")
                .bind("status", status)
                .bind("now", utc(now))
                .bind("chain", tx.chainId())
                .bind("tx", tx.txHash())
                .then();
    }

    /** The nonce after the highest this keeper ever recorded on the chain (0 for none). */
    Mono<Long> nextNonce(long chainId, String keeperAddress) {
        return database.sql("SELECT COALESCE(MAX(nonce) + 1, 0) AS next FROM keeper_transaction "
                        + "WHERE chain_id = :chain AND keeper_address = :keeper")
                .bind("chain", chainId)
                .bind("keeper", keeperAddress)
                .map(row -> row.get("next", Long.class))
                .one();
    }

    /** When the oldest transaction not mined yet was recorded (this host's clock), if any. */
    Mono<Optional<Instant>> oldestUnmined(long chainId) {
        return database.sql("SELECT MIN(created_at) AS oldest FROM keeper_transaction "
                        + "WHERE chain_id = :chain AND status IN ('pending', 'replaced')")
                .bind("chain", chainId)
                .map(row -> Optional.ofNullable(instant(row.get("oldest", OffsetDateTime.class))))
                .one();
    }

    /**
     * The transactions collecting one subscription, oldest first (a replacement after what it replaced: it offers
     * more), for tests and operators.
     */
    Flux<KeeperTransaction> ofSubscription(long chainId, String subscriptionId) {
        return database.sql("SELECT * FROM keeper_transaction WHERE chain_id = :chain AND subscription_id = :id "
                        + "ORDER BY created_at, nonce, max_fee_per_gas")
                .bind("chain", chainId)
                .bind("id", subscriptionId)
                .map(KeeperTransactionRepository::row)
                .all();
    }

    /** Records a new transaction ({@code pending}). Fails when its nonce or its subscription has one outstanding. */
    Mono<Void> record(KeeperTransaction tx) {
        GenericExecuteSpec insert = database.sql("""
                        INSERT INTO keeper_transaction (chain_id, tx_hash, keeper_address, nonce, subscription_id,
                            status, gas_limit, max_fee_per_gas, priority_fee_per_gas, raw, sent_chain_time,
                            created_at, updated_at)
                        VALUES (:chain, :tx, :keeper, :nonce, :subscription, 'pending', :gas, :maxFee, :tip, :raw,
                            :chainTime, :now, :now)""")
                .bind("chain", tx.chainId())
                .bind("tx", tx.txHash())
                .bind("keeper", tx.keeperAddress())
                .bind("nonce", tx.nonce())
                .bind("gas", new BigDecimal(tx.gasLimit()))
                .bind("maxFee", new BigDecimal(tx.fees().maxFeePerGas()))
                .bind("raw", tx.raw())
                .bind("chainTime", utc(tx.sentChainTime()))
                .bind("now", utc(tx.createdAt()));
        insert = bind(insert, "subscription", tx.subscriptionId(), String.class);
        BigInteger tip = tx.fees().priorityFeePerGas();
        return bind(insert, "tip", tip == null ? null : new BigDecimal(tip), BigDecimal.class)
                .then();
    }

    private static KeeperTransaction row(Readable row) {
        BigDecimal tip = row.get("priority_fee_per_gas", BigDecimal.class);
        return new KeeperTransaction(
                row.get("chain_id", Long.class),
                row.get("tx_hash", String.class),
                row.get("keeper_address", String.class),
                row.get("nonce", Long.class),
                row.get("subscription_id", String.class),
                row.get("status", String.class),
                row.get("gas_limit", BigDecimal.class).toBigIntegerExact(),
                new Fees(
                        row.get("max_fee_per_gas", BigDecimal.class).toBigIntegerExact(),
                        tip == null ? null : tip.toBigIntegerExact()),
                row.get("raw", String.class),
                row.get("sent_chain_time", OffsetDateTime.class).toInstant(),
                row.get("block_number", Long.class),
                row.get("accepted", Boolean.class),
                row.get("created_at", OffsetDateTime.class).toInstant());
    }
}
