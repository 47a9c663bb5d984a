package dev.cryptopay.paymentlinks.transaction;

import static dev.cryptopay.service.db.SqlValues.instant;
import static dev.cryptopay.service.db.SqlValues.utc;

import dev.cryptopay.service.db.SqlValues;
import io.r2dbc.spi.Readable;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.stereotype.Repository;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Stores transfers; (network, tx_hash, log_index) identifies one, so a watcher may report it any number of times and
 * one transaction may hold several. Unexpected assets (not the link's token) are stored like any transfer but left out
 * of every figure of what the link was paid.
 */
@Repository
public class TransactionRepository {

    /** The log index of a transfer recorded before log indexes were kept (see V6__transfers.sql). */
    static final int LEGACY_LOG_INDEX = -2;

    private static final String COLUMNS = "id, payment_link_id, network, tx_hash, log_index, token_contract, asset, "
            + "payer_address, crypto_amount, fiat_amount, refunded_amount, status, confirmations, "
            + "required_confirmations, counted_as_use, late, unexpected_asset, created_at, updated_at";

    private final DatabaseClient database;

    public TransactionRepository(DatabaseClient database) {
        this.database = database;
    }

    /** Loads and row-locks the transfer (network, tx_hash, log_index); empty when it is not recorded. */
    public Mono<LinkTransaction> lock(String network, String txHash, int logIndex) {
        return database.sql("SELECT " + COLUMNS + " FROM link_transaction WHERE network = :network "
                        + "AND tx_hash = :txHash AND log_index = :logIndex FOR UPDATE")
                .bind("network", network)
                .bind("txHash", txHash)
                .bind("logIndex", logIndex)
                .map(TransactionRepository::read)
                .one();
    }

    /**
     * The link's record of this transfer from before log indexes were kept, if there is one with the same hash, token
     * and amount: it takes the reported log index (and the row lock), so the transfer stays one record. Empty
     * otherwise.
     */
    public Mono<LinkTransaction> adoptLegacy(UUID linkId, TransactionReport report) {
        var spec = database.sql("UPDATE link_transaction SET log_index = :logIndex WHERE id = (SELECT id FROM "
                        + "link_transaction WHERE payment_link_id = :link AND network = :network AND tx_hash = :txHash "
                        + "AND log_index = " + LEGACY_LOG_INDEX + " AND crypto_amount = :amount "
                        + "AND token_contract IS NOT DISTINCT FROM :token FOR UPDATE) RETURNING " + COLUMNS)
                .bind("logIndex", report.logIndex())
                .bind("link", linkId)
                .bind("network", report.network())
                .bind("txHash", report.txHash())
                .bind("amount", report.cryptoAmount());
        return SqlValues.bind(spec, "token", report.tokenContract(), String.class)
                .map(TransactionRepository::read)
                .one();
    }

    /**
     * Loads and row-locks the link's transfers with this hash (hex compared without regard to case), by log index;
     * none when the link has none.
     */
    public Flux<LinkTransaction> lockOfLink(UUID linkId, String txHash) {
        return database.sql("SELECT " + COLUMNS + " FROM link_transaction WHERE payment_link_id = :link "
                        + "AND lower(tx_hash) = lower(:txHash) ORDER BY log_index, id FOR UPDATE")
                .bind("link", linkId)
                .bind("txHash", txHash)
                .map(TransactionRepository::read)
                .all();
    }

    public Mono<Void> insert(LinkTransaction tx) {
        var spec = database.sql("INSERT INTO link_transaction (" + COLUMNS + ") VALUES (:id, :link, :network, "
                        + ":txHash, :logIndex, :token, :asset, :payer, :crypto, :fiat, :refunded, :status, :confirmations, "
                        + ":required, :counted, :late, :unexpected, :createdAt, :updatedAt)")
                .bind("id", tx.id())
                .bind("link", tx.paymentLinkId())
                .bind("network", tx.network())
                .bind("txHash", tx.txHash())
                .bind("logIndex", tx.logIndex())
                .bind("asset", tx.asset())
                .bind("payer", tx.payerAddress())
                .bind("crypto", tx.cryptoAmount())
                .bind("refunded", tx.refundedAmount())
                .bind("status", tx.status().wireName())
                .bind("confirmations", tx.confirmations())
                .bind("counted", tx.countedAsUse())
                .bind("late", tx.late())
                .bind("unexpected", tx.unexpectedAsset())
                .bind("createdAt", utc(tx.createdAt()))
                .bind("updatedAt", utc(tx.updatedAt()));
        spec = SqlValues.bind(spec, "token", tx.tokenContract(), String.class);
        spec = SqlValues.bind(spec, "fiat", tx.fiatAmount(), BigDecimal.class);
        spec = SqlValues.bind(spec, "fiat", tx.fiatAmount(), BigDecimal.class);
        return SqlValues.bind(spec, "required", tx.requiredConfirmations(), Integer.class)
                .then();
    }

    public Mono<Void> update(LinkTransaction tx) {
        var spec = database.sql("UPDATE link_transaction SET status = :status, confirmations = :confirmations, "
                        + "required_confirmations = :required, counted_as_use = :counted, late = :late, "
                        + "fiat_amount = :fiat, updated_at = :updatedAt WHERE id = :id")
                .bind("status", tx.status().wireName())
                .bind("confirmations", tx.confirmations())
                .bind("counted", tx.countedAsUse())
                .bind("late", tx.late())
                .bind("updatedAt", utc(tx.updatedAt()))
                .bind("id", tx.id());
        spec = SqlValues.bind(spec, "fiat", tx.fiatAmount(), BigDecimal.class);
        return SqlValues.bind(spec, "required", tx.requiredConfirmations(), Integer.class)
                .then();
    }

    /**
     * The sum of the link's partial payments: confirmed transactions other than {@code except} that no completed use
     * has consumed yet (underpayments waiting for a top-up), less what refunds returned of them.
     */
    public Mono<BigDecimal> partialTotal(UUID linkId, UUID except) {
        return database.sql("SELECT coalesce(sum(crypto_amount - refunded_amount), 0) AS partial FROM link_transaction "
                        + "WHERE payment_link_id = :link AND status = 'confirmed' AND NOT counted_as_use AND NOT late "
                        + "AND NOT unexpected_asset AND id <> :except")
                .bind("link", linkId)
                .bind("except", except)
                .map(row -> row.get("partial", BigDecimal.class))
                .one();
    }

    /** Marks the link's partial payments (other than {@code except}) as consumed by the use just completed. */
    public Mono<Void> consumePartials(UUID linkId, UUID except, Instant now) {
        return database.sql("UPDATE link_transaction SET counted_as_use = TRUE, updated_at = :now "
                        + "WHERE payment_link_id = :link AND status = 'confirmed' AND NOT counted_as_use AND NOT late "
                        + "AND NOT unexpected_asset AND id <> :except")
                .bind("now", utc(now))
                .bind("link", linkId)
                .bind("except", except)
                .then();
    }

    /**
     * What a checkout shows about a link's payments, in one query: confirmed and partial totals (less what refunds
     * returned), how many are in flight, the confirmations of the most advanced pending transaction, and what arrived
     * in other assets (pending or confirmed, not returned), which paid nothing of the link.
     */
    public Mono<PaymentProgress> progress(UUID linkId) {
        return database.sql("""
                        SELECT t.confirmed, t.partial, t.pending, p.confirmations, p.required_confirmations,
                               u.assets, u.amounts
                        FROM (SELECT coalesce(sum(crypto_amount - refunded_amount)
                                              FILTER (WHERE status = 'confirmed'), 0) AS confirmed,
                                     coalesce(sum(crypto_amount - refunded_amount) FILTER (WHERE status = 'confirmed'
                                                                         AND NOT counted_as_use), 0) AS partial,
                                     count(*) FILTER (WHERE status = 'pending') AS pending
                              FROM link_transaction WHERE payment_link_id = :link AND NOT unexpected_asset) t
                        LEFT JOIN LATERAL (SELECT confirmations, required_confirmations FROM link_transaction
                                           WHERE payment_link_id = :link AND status = 'pending'
                                                 AND NOT unexpected_asset
                                           ORDER BY confirmations DESC, created_at, id LIMIT 1) p ON TRUE
                        LEFT JOIN LATERAL (SELECT array_agg(asset ORDER BY first_seen, asset) AS assets,
                                                  array_agg(amount ORDER BY first_seen, asset) AS amounts
                                           FROM (SELECT asset, sum(crypto_amount - refunded_amount) AS amount,
                                                        min(created_at) AS first_seen
                                                 FROM link_transaction
                                                 WHERE payment_link_id = :link AND unexpected_asset
                                                       AND status IN ('pending', 'confirmed')
                                                 GROUP BY asset) arrived) u ON TRUE""")
                .bind("link", linkId)
                .map(row -> new PaymentProgress(
                        row.get("confirmed", BigDecimal.class),
                        row.get("partial", BigDecimal.class),
                        row.get("pending", Long.class),
                        row.get("confirmations", Integer.class),
                        row.get("required_confirmations", Integer.class),
                        arrived(row.get("assets", String[].class), row.get("amounts", BigDecimal[].class))))
                .one();
    }

    private static List<PaymentProgress.Arrived> arrived(String[] assets, BigDecimal[] amounts) {
        if (assets == null) {
            return List.of();
        }
        List<PaymentProgress.Arrived> arrived = new ArrayList<>();
        for (int i = 0; i < assets.length; i++) {
            arrived.add(new PaymentProgress.Arrived(assets[i], amounts[i]));
        }
        return List.copyOf(arrived);
    }

    /**
     * The link's confirmed transactions that count for it (late ones only once a use counted them, unexpected assets
     * never), oldest first, at most 20: what a paid checkout shows as its receipt.
     */
    public Flux<LinkTransaction> confirmed(UUID linkId) {
        return database.sql("SELECT " + COLUMNS + " FROM link_transaction WHERE payment_link_id = :link "
                        + "AND status = 'confirmed' AND (counted_as_use OR NOT late) AND NOT unexpected_asset "
                        + "ORDER BY created_at, log_index, id LIMIT 20")
                .bind("link", linkId)
                .map(TransactionRepository::read)
                .all();
    }

    /** Whether the link has pending payments (not unexpected assets) other than {@code except}. */
    public Mono<Boolean> othersPending(UUID linkId, UUID except) {
        return database.sql("SELECT EXISTS (SELECT 1 FROM link_transaction WHERE payment_link_id = :link "
                        + "AND status = 'pending' AND NOT unexpected_asset AND id <> :except) AS pending")
                .bind("link", linkId)
                .bind("except", except)
                .map(row -> row.get("pending", Boolean.class))
                .one();
    }

    /** Loads and row-locks the link's transfer with this id; empty when the link has none. */
    public Mono<LinkTransaction> lockOfLink(UUID linkId, UUID id) {
        return database.sql("SELECT " + COLUMNS + " FROM link_transaction WHERE payment_link_id = :link AND id = :id "
                        + "FOR UPDATE")
                .bind("link", linkId)
                .bind("id", id)
                .map(TransactionRepository::read)
                .one();
    }

    /**
     * The distinct addresses (compared without regard to case; at most {@code limit}) that sent the link's confirmed
     * transfers of its own asset which refunds have not all returned.
     */
    public Flux<String> payers(UUID linkId, int limit) {
        return database.sql("SELECT payer_address FROM (SELECT DISTINCT ON (lower(payer_address)) payer_address "
                        + "FROM link_transaction WHERE payment_link_id = :link AND status = 'confirmed' "
                        + "AND NOT unexpected_asset ORDER BY lower(payer_address)) payers LIMIT :limit")
                .bind("link", linkId)
                .bind("limit", limit)
                .map(row -> row.get("payer_address", String.class))
                .all();
    }

    /**
     * A transfer of the link and what its open and pending refunds claim.
     *
     * @param claimed the sum of its refunds that are initiated or pending (not those completed: they are in its
     *                refunded amount)
     */
    public record Claimed(LinkTransaction transaction, BigDecimal claimed) {}

    /**
     * Loads and row-locks the link's confirmed transfers of its own asset that refunds have not all returned, in the
     * order a refund of the link's money returns them: those no use counted first (late payments, partial
     * payments), then those that paid a use, newest first within each.
     */
    public Flux<Claimed> lockRefundable(UUID linkId) {
        return database.sql("SELECT " + COLUMNS + ", (SELECT coalesce(sum(r.amount), 0) FROM link_refund r "
                        + "WHERE r.transaction_id = t.id AND r.status IN ('initiated', 'pending')) AS claimed "
                        + "FROM link_transaction t WHERE payment_link_id = :link AND status = 'confirmed' "
                        + "AND NOT unexpected_asset "
                        + "ORDER BY counted_as_use, created_at DESC, log_index DESC, id DESC FOR UPDATE OF t")
                .bind("link", linkId)
                .map(row -> new Claimed(read(row), row.get("claimed", BigDecimal.class)))
                .all();
    }

    /**
     * Records that a completed refund returned {@code amount} of the transfer (never more than its amount): it reads
     * {@code refunded} once all of it is returned, and then no longer counts as received.
     */
    public Mono<Void> refunded(UUID id, BigDecimal amount, Instant now) {
        return database.sql("UPDATE link_transaction SET refunded_amount = least(crypto_amount, refunded_amount + "
                        + ":amount), status = CASE WHEN refunded_amount + :amount >= crypto_amount THEN 'refunded' "
                        + "ELSE status END, updated_at = :now WHERE id = :id")
                .bind("amount", amount)
                .bind("now", utc(now))
                .bind("id", id)
                .then();
    }

    static LinkTransaction read(Readable row) {
        return new LinkTransaction(
                row.get("id", UUID.class),
                row.get("payment_link_id", UUID.class),
                row.get("network", String.class),
                row.get("tx_hash", String.class),
                row.get("log_index", Integer.class),
                row.get("token_contract", String.class),
                row.get("asset", String.class),
                row.get("payer_address", String.class),
                row.get("crypto_amount", BigDecimal.class),
                row.get("fiat_amount", BigDecimal.class),
                row.get("refunded_amount", BigDecimal.class),
                TransactionStatus.fromWireName(row.get("status", String.class)),
                row.get("confirmations", Integer.class),
                row.get("required_confirmations", Integer.class),
                row.get("counted_as_use", Boolean.class),
                row.get("late", Boolean.class),
                row.get("unexpected_asset", Boolean.class),
                instant(row.get("created_at", OffsetDateTime.class)),
                instant(row.get("updated_at", OffsetDateTime.class)));
    }
}
