package dev.cryptopay.paymentlinks.paymentlink;

import static dev.cryptopay.service.db.SqlValues.instant;
import static dev.cryptopay.service.db.SqlValues.utc;

import dev.cryptopay.service.db.SqlValues;
import io.r2dbc.spi.Readable;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.UUID;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.r2dbc.core.DatabaseClient.GenericExecuteSpec;
import org.springframework.stereotype.Repository;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Stores refunds ({@link LinkRefund}). Callers hold the link's row lock when they create or pay one, so what can be
 * refunded is judged against every refund of the link at once.
 */
@Repository
public class RefundRepository {

    private static final String COLUMNS = "id, payment_link_id, transaction_id, status, failure_reason, network, "
            + "chain_id, token_contract, asset, decimals, amount, amount_base_units, from_address, to_address, "
            + "expires_at, tx_hash, log_index, created_at, updated_at";
    /** Refunds that claim money not yet returned: asked for or on their way. */
    private static final String OPEN_OR_PENDING = "status IN ('initiated', 'pending')";

    private final DatabaseClient database;

    public RefundRepository(DatabaseClient database) {
        this.database = database;
    }

    public Mono<Void> insert(LinkRefund refund) {
        GenericExecuteSpec spec = database.sql("INSERT INTO link_refund (" + COLUMNS + ") VALUES (:id, :link, "
                        + ":transaction, :status, :failure, :network, :chainId, :token, :asset, :decimals, :amount, "
                        + ":baseUnits, :from, :to, :expiresAt, :txHash, :logIndex, :createdAt, :updatedAt)")
                .bind("id", refund.id())
                .bind("link", refund.paymentLinkId())
                .bind("network", refund.network())
                .bind("chainId", refund.chainId())
                .bind("asset", refund.asset())
                .bind("decimals", refund.decimals())
                .bind("amount", refund.amount())
                .bind("baseUnits", new BigDecimal(refund.amountBaseUnits()))
                .bind("from", refund.fromAddress())
                .bind("to", refund.toAddress())
                .bind("expiresAt", utc(refund.expiresAt()))
                .bind("createdAt", utc(refund.createdAt()));
        spec = SqlValues.bind(spec, "transaction", refund.transactionId(), UUID.class);
        spec = SqlValues.bind(spec, "token", refund.tokenContract(), String.class);
        return bindState(spec, refund).then();
    }

    /** Writes what a refund's moves change: status, failure, the transfer that paid it. */
    public Mono<Void> update(LinkRefund refund) {
        GenericExecuteSpec spec = database.sql("UPDATE link_refund SET status = :status, failure_reason = :failure, "
                        + "tx_hash = :txHash, log_index = :logIndex, updated_at = :updatedAt WHERE id = :id")
                .bind("id", refund.id());
        return bindState(spec, refund).then();
    }

    private static GenericExecuteSpec bindState(GenericExecuteSpec spec, LinkRefund refund) {
        spec = spec.bind("status", refund.status().wireName()).bind("updatedAt", utc(refund.updatedAt()));
        spec = SqlValues.bind(
                spec,
                "failure",
                refund.failure() == null ? null : refund.failure().wireName(),
                String.class);
        spec = SqlValues.bind(spec, "txHash", refund.txHash(), String.class);
        return SqlValues.bind(spec, "logIndex", refund.logIndex(), Integer.class);
    }

    /** Loads and row-locks a refund; empty when there is none. */
    public Mono<LinkRefund> lock(UUID id) {
        return database.sql("SELECT " + COLUMNS + " FROM link_refund WHERE id = :id FOR UPDATE")
                .bind("id", id)
                .map(RefundRepository::read)
                .one();
    }

    /** The link's refunds, newest first, one page. */
    public Flux<LinkRefund> ofLink(UUID linkId, int limit, long offset) {
        return database.sql("SELECT " + COLUMNS + " FROM link_refund WHERE payment_link_id = :link "
                        + "ORDER BY created_at DESC, id DESC LIMIT :limit OFFSET :offset")
                .bind("link", linkId)
                .bind("limit", limit)
                .bind("offset", offset)
                .map(RefundRepository::read)
                .all();
    }

    public Mono<Long> countOfLink(UUID linkId) {
        return database.sql("SELECT count(*) AS total FROM link_refund WHERE payment_link_id = :link")
                .bind("link", linkId)
                .map(row -> row.get("total", Long.class))
                .one();
    }

    /** What open and pending refunds of this transfer claim (completed ones are in its refunded amount). */
    public Mono<BigDecimal> claimedOf(UUID transactionId) {
        return database.sql("SELECT coalesce(sum(amount), 0) AS claimed FROM link_refund "
                        + "WHERE transaction_id = :transaction AND " + OPEN_OR_PENDING)
                .bind("transaction", transactionId)
                .map(row -> row.get("claimed", BigDecimal.class))
                .one();
    }

    /**
     * What can still be refunded of the link's money in its own asset: its confirmed transfers of that asset (late
     * ones included) less what completed refunds returned, less what open and pending refunds in that asset claim
     * (those of the link's money and those of its transfers; refunds of unexpected assets are another asset).
     */
    public Mono<BigDecimal> refundableOfLink(UUID linkId) {
        return database.sql("""
                        SELECT (SELECT coalesce(sum(crypto_amount - refunded_amount), 0) FROM link_transaction
                                WHERE payment_link_id = :link AND status = 'confirmed' AND NOT unexpected_asset)
                             - (SELECT coalesce(sum(r.amount), 0) FROM link_refund r
                                LEFT JOIN link_transaction t ON t.id = r.transaction_id
                                WHERE r.payment_link_id = :link AND r.status IN ('initiated', 'pending')
                                      AND NOT coalesce(t.unexpected_asset, FALSE)) AS refundable""")
                .bind("link", linkId)
                .map(row -> row.get("refundable", BigDecimal.class))
                .one();
    }

    /**
     * Locks the oldest open refund of the link that an outgoing transfer of {@code tokenContract} (lower case; null
     * for the native coin) to {@code toAddress} (any case) of exactly {@code amount} pays; empty when none does.
     */
    public Mono<LinkRefund> lockOpenPaidBy(UUID linkId, String tokenContract, String toAddress, BigDecimal amount) {
        return lockPaidBy("status = 'initiated'", "created_at, id", linkId, tokenContract, toAddress, amount);
    }

    /**
     * Locks the most recently abandoned refund of the link (failed: nothing paid it before its {@code expires_at})
     * that an outgoing transfer of {@code tokenContract} to {@code toAddress} of exactly {@code amount} pays after
     * all; empty when none does.
     */
    public Mono<LinkRefund> lockAbandonedPaidBy(
            UUID linkId, String tokenContract, String toAddress, BigDecimal amount) {
        return lockPaidBy(
                "status = 'failed' AND failure_reason = 'abandoned'",
                "updated_at DESC, id",
                linkId,
                tokenContract,
                toAddress,
                amount);
    }

    /** The first refund in {@code order} of the link in {@code state} that such a transfer pays, locked. */
    private Mono<LinkRefund> lockPaidBy(
            String state, String order, UUID linkId, String tokenContract, String toAddress, BigDecimal amount) {
        GenericExecuteSpec spec = database.sql("SELECT " + COLUMNS + " FROM link_refund WHERE payment_link_id = :link "
                        + "AND " + state + " AND token_contract IS NOT DISTINCT FROM :token "
                        + "AND lower(to_address) = lower(:to) AND amount = :amount "
                        + "ORDER BY " + order + " LIMIT 1 FOR UPDATE")
                .bind("link", linkId)
                .bind("to", toAddress)
                .bind("amount", amount);
        return SqlValues.bind(spec, "token", tokenContract, String.class)
                .map(RefundRepository::read)
                .one();
    }

    /** How many refunds of the link are open (initiated, or paid and not yet confirmed). */
    public Mono<Long> countOpenOfLink(UUID linkId) {
        return database.sql(
                        "SELECT count(*) AS n FROM link_refund WHERE payment_link_id = :link AND " + OPEN_OR_PENDING)
                .bind("link", linkId)
                .map(row -> row.get("n", Long.class))
                .one();
    }

    /** Locks up to {@code limit} initiated refunds past {@code expires_at} that no other instance is abandoning now. */
    public Flux<LinkRefund> lockAbandoned(Instant now, int limit) {
        return database.sql("SELECT " + COLUMNS + " FROM link_refund WHERE status = 'initiated' "
                        + "AND expires_at <= :now ORDER BY expires_at, id LIMIT :limit FOR UPDATE SKIP LOCKED")
                .bind("now", utc(now))
                .bind("limit", limit)
                .map(RefundRepository::read)
                .all();
    }

    static LinkRefund read(Readable row) {
        String failure = row.get("failure_reason", String.class);
        return new LinkRefund(
                row.get("id", UUID.class),
                row.get("payment_link_id", UUID.class),
                row.get("transaction_id", UUID.class),
                RefundStatus.fromWireName(row.get("status", String.class)),
                failure == null ? null : RefundFailure.fromWireName(failure),
                row.get("network", String.class),
                row.get("chain_id", Long.class),
                row.get("token_contract", String.class),
                row.get("asset", String.class),
                row.get("decimals", Integer.class),
                row.get("amount", BigDecimal.class),
                row.get("amount_base_units", BigDecimal.class).toBigIntegerExact(),
                row.get("from_address", String.class),
                row.get("to_address", String.class),
                instant(row.get("expires_at", OffsetDateTime.class)),
                row.get("tx_hash", String.class),
                row.get("log_index", Integer.class),
                instant(row.get("created_at", OffsetDateTime.class)),
                instant(row.get("updated_at", OffsetDateTime.class)));
    }
}
