package dev.cryptopay.paymentlinks.paymentlink;

import static dev.cryptopay.service.db.SqlValues.instant;
import static dev.cryptopay.service.db.SqlValues.utc;

import dev.cryptopay.auth.Mode;
import dev.cryptopay.auth.internal.MerchantIdentity;
import dev.cryptopay.paymentlinks.receiving.DepositAddress;
import dev.cryptopay.service.db.SqlValues;
import dev.cryptopay.service.outbox.DomainEvent;
import dev.cryptopay.service.outbox.OutboxWriter;
import dev.cryptopay.service.request.Where;
import io.r2dbc.postgresql.codec.Json;
import io.r2dbc.spi.Readable;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.UUID;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.r2dbc.core.DatabaseClient.GenericExecuteSpec;
import org.springframework.stereotype.Repository;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/** Stores payment links. Every merchant query filters by merchant id and mode, so test and live never mix. */
@Repository
public class PaymentLinkRepository {

    static final String COLUMNS = """
            id, merchant_id, mode, payment_name, description, amount, currency, network, payment_status, expires_at,
            max_uses, current_uses, is_active, customer_id, customer_name, customer_email, product_name,
            product_description, cart, order_id, auto_fill, success_url, cancel_url, webhook_metadata, checkout_mode,
            origin, created_at, updated_at, chain_id, token_contract, decimals, amount_base_units, receiving_key_id,
            derivation_index, deposit_address""";

    private static final String INSERT = "INSERT INTO payment_link (" + COLUMNS + ") VALUES ("
            + ":id, :merchantId, :mode, :paymentName, :description, :amount, :currency, :network, :status, "
            + ":expiresAt, :maxUses, :currentUses, :active, :customerId, :customerName, :customerEmail, "
            + ":productName, :productDescription, :cart, :orderId, :autoFill, :successUrl, :cancelUrl, "
            + ":webhookMetadata, :checkoutMode, :origin, :createdAt, :updatedAt, :chainId, :tokenContract, "
            + ":decimals, :amountBaseUnits, :receivingKeyId, :derivationIndex, :depositAddress)";

    private final DatabaseClient database;
    private final OutboxWriter outbox;

    public PaymentLinkRepository(DatabaseClient database, OutboxWriter outbox) {
        this.database = database;
        this.outbox = outbox;
    }

    /**
     * Inserts a new link and appends its events ({@code payment.created}) to the outbox in the same statement: one
     * round trip, atomic without a transaction around it.
     */
    public Mono<Void> insert(PaymentLink link, String topic, List<DomainEvent> events) {
        return outbox.appendWith(INSERT + " RETURNING id", spec -> bindRow(spec, link), topic, events)
                .then();
    }

    private static GenericExecuteSpec bindRow(GenericExecuteSpec row, PaymentLink link) {
        GenericExecuteSpec spec = row.bind("id", link.id())
                .bind("merchantId", link.merchantId())
                .bind("mode", link.mode().wireName())
                .bind("paymentName", link.paymentName())
                .bind("amount", link.amount())
                .bind("currency", link.currency())
                .bind("network", link.network())
                .bind("status", link.status().wireName())
                .bind("expiresAt", utc(link.expiresAt()))
                .bind("maxUses", link.maxUses())
                .bind("currentUses", link.currentUses())
                .bind("active", link.active())
                .bind("customerId", link.customerId())
                .bind("orderId", link.orderId())
                .bind("autoFill", link.autoFill())
                .bind("createdAt", utc(link.createdAt()))
                .bind("updatedAt", utc(link.updatedAt()));
        spec = SqlValues.bind(spec, "description", link.description(), String.class);
        spec = SqlValues.bind(spec, "customerName", link.customerName(), String.class);
        spec = SqlValues.bind(spec, "customerEmail", link.customerEmail(), String.class);
        spec = SqlValues.bind(spec, "productName", link.productName(), String.class);
        spec = SqlValues.bind(spec, "productDescription", link.productDescription(), String.class);
        spec = SqlValues.bind(spec, "cart", link.cart() == null ? null : Json.of(link.cart()), Json.class);
        spec = SqlValues.bind(spec, "successUrl", link.successUrl(), String.class);
        spec = SqlValues.bind(spec, "cancelUrl", link.cancelUrl(), String.class);
        spec = SqlValues.bind(
                spec,
                "webhookMetadata",
                link.webhookMetadata() == null ? null : Json.of(link.webhookMetadata()),
                Json.class);
        spec = SqlValues.bind(spec, "checkoutMode", link.checkoutMode(), String.class);
        spec = SqlValues.bind(spec, "origin", link.origin(), String.class);
        return bindPayment(spec, link.payment());
    }

    private static GenericExecuteSpec bindPayment(GenericExecuteSpec spec, ChainPayment payment) {
        DepositAddress deposit = payment == null ? null : payment.deposit();
        spec = SqlValues.bind(spec, "chainId", payment == null ? null : payment.chainId(), Long.class);
        spec = SqlValues.bind(spec, "tokenContract", payment == null ? null : payment.tokenContract(), String.class);
        spec = SqlValues.bind(spec, "decimals", payment == null ? null : payment.decimals(), Integer.class);
        spec = SqlValues.bind(
                spec,
                "amountBaseUnits",
                payment == null ? null : new BigDecimal(payment.amountBaseUnits()),
                BigDecimal.class);
        spec = SqlValues.bind(spec, "receivingKeyId", deposit == null ? null : deposit.keyId(), UUID.class);
        spec = SqlValues.bind(spec, "derivationIndex", deposit == null ? null : deposit.index(), Integer.class);
        return SqlValues.bind(spec, "depositAddress", deposit == null ? null : deposit.address(), String.class);
    }

    /** Writes the fields transitions change. */
    public Mono<Void> updateState(PaymentLink link) {
        return database.sql("""
                        UPDATE payment_link SET payment_status = :status, current_uses = :uses, is_active = :active,
                               updated_at = :updatedAt
                        WHERE id = :id""")
                .bind("status", link.status().wireName())
                .bind("uses", link.currentUses())
                .bind("active", link.active())
                .bind("updatedAt", utc(link.updatedAt()))
                .bind("id", link.id())
                .then();
    }

    public Mono<PaymentLink> find(MerchantIdentity merchant, UUID id) {
        return select(merchant, id, "");
    }

    /** Loads and row-locks a link for a transition inside the caller's transaction. */
    public Mono<PaymentLink> lock(MerchantIdentity merchant, UUID id) {
        return select(merchant, id, " FOR UPDATE");
    }

    private Mono<PaymentLink> select(MerchantIdentity merchant, UUID id, String lockClause) {
        return database.sql("SELECT " + COLUMNS + " FROM payment_link WHERE id = :id AND merchant_id = :merchant "
                        + "AND mode = :mode" + lockClause)
                .bind("id", id)
                .bind("merchant", merchant.merchantId())
                .bind("mode", merchant.mode().wireName())
                .map(PaymentLinkRepository::read)
                .one();
    }

    /** Reads a link by id alone, without a lock; for the customer's checkout, which has no merchant identity. */
    public Mono<PaymentLink> findById(UUID id) {
        return database.sql("SELECT " + COLUMNS + " FROM payment_link WHERE id = :id")
                .bind("id", id)
                .map(PaymentLinkRepository::read)
                .one();
    }

    /** Loads and row-locks a link by id alone; for internal callers that are not a merchant. */
    public Mono<PaymentLink> lockAnyMerchant(UUID id) {
        return database.sql("SELECT " + COLUMNS + " FROM payment_link WHERE id = :id FOR UPDATE")
                .bind("id", id)
                .map(PaymentLinkRepository::read)
                .one();
    }

    /** Locks up to {@code limit} pending links past expiry that no other instance is sweeping right now. */
    public Flux<PaymentLink> lockExpiredPending(Instant now, int limit) {
        return database.sql("SELECT " + COLUMNS + " FROM payment_link WHERE payment_status = 'pending' "
                        + "AND expires_at <= :now ORDER BY expires_at LIMIT :limit FOR UPDATE SKIP LOCKED")
                .bind("now", utc(now))
                .bind("limit", limit)
                .map(PaymentLinkRepository::read)
                .all();
    }

    public Mono<Long> count(Where where) {
        GenericExecuteSpec spec = database.sql("SELECT count(*) AS total FROM payment_link WHERE " + where.clause());
        return where.bind(spec).map(row -> row.get("total", Long.class)).one();
    }

    public Flux<PaymentLink> page(Where where, String orderBy, int limit, long offset) {
        GenericExecuteSpec spec = database.sql("SELECT " + COLUMNS + " FROM payment_link WHERE " + where.clause()
                + " ORDER BY " + orderBy + " LIMIT :limit OFFSET :offset");
        return where.bind(spec)
                .bind("limit", limit)
                .bind("offset", offset)
                .map(PaymentLinkRepository::read)
                .all();
    }

    /**
     * The figures of the link's recorded transactions, for single-link reads. Unexpected assets are counted by
     * status, but neither their amounts (another asset) nor their senders (they paid nothing of the link). Amounts are
     * what confirmed transfers of the link's asset brought less what completed refunds returned of them; the USD
     * value of a partly refunded transfer counts in proportion, and transfers without one are counted as unpriced.
     */
    public Mono<Summary> summary(UUID linkId) {
        return database.sql("SELECT count(DISTINCT payer_address) FILTER (WHERE " + Summary.COUNTED + ") AS payers, "
                        + "count(*) AS total, " + Summary.FIAT_SQL + " AS fiat, " + Summary.UNPRICED_SQL
                        + " AS unpriced, " + Summary.CRYPTO_SQL + " AS crypto, "
                        + "count(*) FILTER (WHERE status = 'pending') AS pending, "
                        + "count(*) FILTER (WHERE status = 'confirmed') AS completed, "
                        + "count(*) FILTER (WHERE status = 'failed') AS failed "
                        + "FROM link_transaction WHERE payment_link_id = :link")
                .bind("link", linkId)
                .map(row -> new Summary(
                        row.get("payers", Long.class),
                        row.get("total", Long.class),
                        row.get("fiat", BigDecimal.class),
                        Summary.FIAT_CURRENCY,
                        row.get("unpriced", Long.class),
                        row.get("crypto", BigDecimal.class),
                        row.get("pending", Long.class),
                        row.get("completed", Long.class),
                        row.get("failed", Long.class)))
                .one();
    }

    /**
     * What the link has received so far, as its payment events say: the crypto amount of its confirmed transactions
     * that arrived in time (partial payments included) or that the merchant resolved, less what completed refunds
     * returned of them; late ones not resolved and unexpected assets are not received by the link.
     */
    public Mono<BigDecimal> amountReceived(UUID linkId) {
        return database.sql("SELECT coalesce(sum(crypto_amount - refunded_amount), 0) AS received "
                        + "FROM link_transaction WHERE payment_link_id = :link AND status = 'confirmed' "
                        + "AND (NOT late OR counted_as_use) AND NOT unexpected_asset")
                .bind("link", linkId)
                .map(row -> row.get("received", BigDecimal.class))
                .one();
    }

    /** The link's most recent recorded transactions (at most {@code limit}), newest first, for single-link reads. */
    public Flux<RecordedTransaction> transactions(UUID linkId, int limit) {
        return database.sql(
                        "SELECT id, tx_hash, log_index, network, token_contract, asset, payer_address, "
                                + "crypto_amount, fiat_amount, refunded_amount, status, confirmations, required_confirmations, "
                                + "late, counted_as_use, unexpected_asset, created_at FROM link_transaction "
                                + "WHERE payment_link_id = :link ORDER BY created_at DESC, log_index DESC, id DESC LIMIT :limit")
                .bind("link", linkId)
                .bind("limit", limit)
                .map(PaymentLinkRepository::readTransaction)
                .all();
    }

    /** The link's most recent transfers out of its deposit address (at most {@code limit}), newest first. */
    public Flux<RecordedOutgoingTransfer> outgoingTransfers(UUID linkId, int limit) {
        return database.sql("SELECT tx_hash, log_index, network, token_contract, asset, to_address, crypto_amount, "
                        + "status, confirmations, refund_id, created_at FROM link_outgoing_transfer "
                        + "WHERE payment_link_id = :link ORDER BY created_at DESC, id DESC LIMIT :limit")
                .bind("link", linkId)
                .bind("limit", limit)
                .map(row -> new RecordedOutgoingTransfer(
                        row.get("tx_hash", String.class),
                        row.get("log_index", Integer.class),
                        row.get("network", String.class),
                        row.get("token_contract", String.class),
                        row.get("asset", String.class),
                        row.get("to_address", String.class),
                        row.get("crypto_amount", BigDecimal.class),
                        row.get("status", String.class),
                        row.get("confirmations", Integer.class),
                        row.get("refund_id", UUID.class),
                        instant(row.get("created_at", OffsetDateTime.class))))
                .all();
    }

    static PaymentLink read(Readable row) {
        return new PaymentLink(
                row.get("id", UUID.class),
                row.get("merchant_id", UUID.class),
                Mode.fromWireName(row.get("mode", String.class)),
                row.get("payment_name", String.class),
                row.get("description", String.class),
                row.get("amount", BigDecimal.class),
                row.get("currency", String.class),
                row.get("network", String.class),
                PaymentStatus.fromWireName(row.get("payment_status", String.class)),
                instant(row.get("expires_at", OffsetDateTime.class)),
                row.get("max_uses", Integer.class),
                row.get("current_uses", Integer.class),
                row.get("is_active", Boolean.class),
                row.get("customer_id", String.class),
                row.get("customer_name", String.class),
                row.get("customer_email", String.class),
                row.get("product_name", String.class),
                row.get("product_description", String.class),
                json(row.get("cart", Json.class)),
                row.get("order_id", String.class),
                row.get("auto_fill", Boolean.class),
                row.get("success_url", String.class),
                row.get("cancel_url", String.class),
                json(row.get("webhook_metadata", Json.class)),
                row.get("checkout_mode", String.class),
                row.get("origin", String.class),
                instant(row.get("created_at", OffsetDateTime.class)),
                instant(row.get("updated_at", OffsetDateTime.class)),
                payment(row));
    }

    /**
     * A link_transaction row as a single-link read shows it: the columns {@code id, tx_hash, log_index, network,
     * token_contract, asset, payer_address, crypto_amount, fiat_amount, refunded_amount, status, confirmations,
     * required_confirmations, late, counted_as_use, unexpected_asset, created_at}.
     */
    static RecordedTransaction readTransaction(Readable row) {
        return new RecordedTransaction(
                row.get("id", UUID.class),
                row.get("tx_hash", String.class),
                row.get("log_index", Integer.class),
                row.get("network", String.class),
                row.get("token_contract", String.class),
                row.get("asset", String.class),
                row.get("payer_address", String.class),
                row.get("crypto_amount", BigDecimal.class),
                row.get("fiat_amount", BigDecimal.class),
                row.get("refunded_amount", BigDecimal.class),
                row.get("status", String.class),
                row.get("confirmations", Integer.class),
                row.get("required_confirmations", Integer.class),
                row.get("late", Boolean.class),
                row.get("counted_as_use", Boolean.class),
                row.get("unexpected_asset", Boolean.class),
                instant(row.get("created_at", OffsetDateTime.class)));
    }

    private static ChainPayment payment(Readable row) {
        Long chainId = row.get("chain_id", Long.class);
        if (chainId == null) {
            return null;
        }
        UUID keyId = row.get("receiving_key_id", UUID.class);
        DepositAddress deposit = keyId == null
                ? null
                : new DepositAddress(
                        keyId, row.get("derivation_index", Integer.class), row.get("deposit_address", String.class));
        return new ChainPayment(
                chainId,
                row.get("token_contract", String.class),
                row.get("decimals", Integer.class),
                row.get("amount_base_units", BigDecimal.class).toBigIntegerExact(),
                deposit);
    }

    private static String json(Json value) {
        return value == null ? null : value.asString();
    }
}
