package dev.cryptopay.subscriptions.subscription;

import static dev.cryptopay.service.db.SqlValues.instant;
import static dev.cryptopay.service.db.SqlValues.utc;

import dev.cryptopay.auth.Mode;
import dev.cryptopay.auth.internal.MerchantIdentity;
import dev.cryptopay.service.db.SqlValues;
import dev.cryptopay.service.request.Where;
import io.r2dbc.postgresql.codec.Json;
import io.r2dbc.spi.Readable;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.r2dbc.core.DatabaseClient.GenericExecuteSpec;
import org.springframework.stereotype.Repository;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/** Reads subscription links and their payments; every merchant query filters by merchant id and mode. */
@Repository
public class LinkRepository {

    public static final String COLUMNS = """
            l.id, l.merchant_id, l.mode, l.plan_id, l.subscriber_id, l.wallet_address, l.subscribe_hash,
            l.subscription_onchain_id, l.chain_status, l.chain_subscription_id,
            l.approvals::text AS approvals, l.owed, l.paid_periods, l.locked, l.subscribed_at, l.trial_ends_at,
            l.expires_at, l.is_active, l.period_due_at, l.missed_periods, l.created_at, l.updated_at""";

    static final String PAYMENT_COLUMNS = """
            id, merchant_id, mode, link_id, network_id, tx_hash, block_number, block_hash, log_index, confirmations, amount,
            user_wallet_address, status, paid_at, starts_at, ends_at, next_billing_at, collected_after_stop, created_at,
            updated_at""";

    /** Links joined with their subscriber, so searches and responses can use the customer's details. */
    public static final String FROM = " FROM subscription_link l JOIN subscriber s ON s.id = l.subscriber_id";

    private final DatabaseClient database;

    public LinkRepository(DatabaseClient database) {
        this.database = database;
    }

    public Mono<Void> insert(SubscriptionLink link) {
        GenericExecuteSpec spec = database.sql("""
                        INSERT INTO subscription_link (id, merchant_id, mode, plan_id, subscriber_id, wallet_address,
                            subscribe_hash, subscription_onchain_id, chain_status, chain_subscription_id, approvals,
                            owed, paid_periods, locked, subscribed_at, trial_ends_at, expires_at, is_active,
                            period_due_at, missed_periods, created_at, updated_at)
                        VALUES (:id, :merchantId, :mode, :planId, :subscriberId, :wallet, :hash, :onchainId,
                            :chainStatus, :chainId, :approvals, :owed, :paidPeriods, :locked, :subscribedAt,
                            :trialEndsAt, :expiresAt, :active, :periodDueAt, :missedPeriods, :createdAt, :updatedAt)""")
                .bind("id", link.id())
                .bind("merchantId", link.merchantId())
                .bind("mode", link.mode().wireName())
                .bind("planId", link.planId())
                .bind("subscriberId", link.subscriberId())
                .bind("createdAt", utc(link.createdAt()));
        return bindState(spec, link).then();
    }

    /** Binds what a link's moves change (every column but its identity and creation time). */
    private static GenericExecuteSpec bindState(GenericExecuteSpec spec, SubscriptionLink link) {
        spec = spec.bind("wallet", link.walletAddress())
                .bind("chainStatus", link.chainStatus().wireName())
                .bind("approvals", Json.of(link.approvals()))
                .bind("owed", new BigDecimal(link.owed()))
                .bind("paidPeriods", link.paidPeriods())
                .bind("locked", link.locked())
                .bind("active", link.active())
                .bind("missedPeriods", link.missedPeriods())
                .bind("updatedAt", utc(link.updatedAt()));
        spec = SqlValues.bind(spec, "hash", link.subscribeHash(), String.class);
        spec = SqlValues.bind(spec, "onchainId", link.onchainId(), Long.class);
        spec = SqlValues.bind(spec, "chainId", link.chainSubscriptionId(), String.class);
        spec = SqlValues.bind(spec, "subscribedAt", link.subscribedAt());
        spec = SqlValues.bind(spec, "trialEndsAt", link.trialEndsAt());
        spec = SqlValues.bind(spec, "expiresAt", link.expiresAt());
        return SqlValues.bind(spec, "periodDueAt", link.periodDueAt());
    }

    /** Loads and row-locks the merchant's link inside the caller's transaction. */
    public Mono<SubscriptionLink> lock(MerchantIdentity merchant, UUID id) {
        Where where = Where.merchant(merchant, "l.").equal("l.id", "id", id);
        return where.bind(database.sql("SELECT " + COLUMNS + FROM + " WHERE " + where.clause() + " FOR UPDATE OF l"))
                .map(LinkRepository::read)
                .one();
    }

    /** Loads and row-locks a link by id alone, for the customer's flow. */
    public Mono<SubscriptionLink> lockAny(UUID id) {
        return database.sql("SELECT " + COLUMNS + FROM + " WHERE l.id = :id FOR UPDATE OF l")
                .bind("id", id)
                .map(LinkRepository::read)
                .one();
    }

    /** Writes what the chain, the scheduler and updates change. */
    public Mono<Void> update(SubscriptionLink link) {
        GenericExecuteSpec spec = database.sql("""
                        UPDATE subscription_link SET wallet_address = :wallet, subscribe_hash = :hash,
                               subscription_onchain_id = :onchainId, chain_status = :chainStatus,
                               chain_subscription_id = :chainId, approvals = :approvals, owed = :owed,
                               paid_periods = :paidPeriods, locked = :locked, subscribed_at = :subscribedAt,
                               trial_ends_at = :trialEndsAt, expires_at = :expiresAt, is_active = :active,
                               period_due_at = :periodDueAt, missed_periods = :missedPeriods, updated_at = :updatedAt
                        WHERE id = :id""").bind("id", link.id());
        return bindState(spec, link).then();
    }

    /**
     * Row-locks the links (of any merchant) whose wallet said this transaction subscribed them and that the chain has
     * not confirmed yet.
     */
    public Flux<SubscriptionLink> lockAwaiting(String txHash) {
        return database.sql("SELECT " + COLUMNS + FROM + " WHERE lower(l.subscribe_hash) = lower(:hash)"
                        + " AND l.chain_status IN ('pending', 'failed') ORDER BY l.created_at, l.id FOR UPDATE OF l")
                .bind("hash", txHash)
                .map(LinkRepository::read)
                .all();
    }

    /** Row-locks the links (one per merchant and mode at most) of an on-chain subscription. */
    public Flux<SubscriptionLink> lockOnChain(String chainSubscriptionId) {
        return database.sql("SELECT " + COLUMNS + FROM + " WHERE l.chain_subscription_id = :id ORDER BY l.id"
                        + " FOR UPDATE OF l")
                .bind("id", chainSubscriptionId)
                .map(LinkRepository::read)
                .all();
    }

    /** Whether the link's period starting at {@code startsAt} is already paid by a collection of the contract. */
    public Mono<Boolean> periodPaid(UUID linkId, Instant startsAt) {
        return database.sql("SELECT 1 FROM subscription_payment WHERE link_id = :link AND starts_at = :start"
                        + " AND status = 'confirmed' AND log_index IS NOT NULL")
                .bind("link", linkId)
                .bind("start", utc(startsAt))
                .map(row -> true)
                .first()
                .defaultIfEmpty(false);
    }

    /** A collection a reorganisation took away: its payments no longer count as paid; answers them as they now are. */
    public Flux<SubscriptionPayment> paymentsRemoved(String txHash, int logIndex, Instant now) {
        return database.sql("UPDATE subscription_payment SET status = 'failed', updated_at = :now"
                        + " WHERE tx_hash = :hash AND log_index = :index AND status <> 'failed'"
                        + " RETURNING " + PAYMENT_COLUMNS)
                .bind("now", utc(now))
                .bind("hash", txHash)
                .bind("index", logIndex)
                .map(LinkRepository::readPayment)
                .all();
    }

    /** The merchant's payment of this link recorded from this transaction on this network, if any. */
    public Mono<SubscriptionPayment> paymentOf(MerchantIdentity merchant, UUID networkId, String txHash, UUID linkId) {
        return database.sql("SELECT " + PAYMENT_COLUMNS + " FROM subscription_payment WHERE merchant_id = :merchant "
                        + "AND mode = :mode AND network_id = :network AND lower(tx_hash) = lower(:hash)"
                        + " AND link_id = :link ORDER BY log_index NULLS LAST LIMIT 1")
                .bind("merchant", merchant.merchantId())
                .bind("mode", merchant.mode().wireName())
                .bind("network", networkId)
                .bind("hash", txHash)
                .bind("link", linkId)
                .map(LinkRepository::readPayment)
                .one();
    }

    public Mono<Void> insert(SubscriptionPayment payment) {
        GenericExecuteSpec spec = database.sql("""
                        INSERT INTO subscription_payment (id, merchant_id, mode, link_id, network_id, tx_hash,
                            block_number, block_hash, log_index, confirmations, amount, user_wallet_address, status,
                            paid_at, starts_at, ends_at, next_billing_at, collected_after_stop, created_at, updated_at)
                        VALUES (:id, :merchantId, :mode, :linkId, :networkId, :txHash, :blockNumber, :blockHash,
                            :logIndex, :confirmations, :amount, :wallet, :status, :paidAt, :startsAt, :endsAt, :nextBillingAt,
                            :collectedAfterStop, :createdAt, :updatedAt)""")
                .bind("collectedAfterStop", payment.collectedAfterStop())
                .bind("id", payment.id())
                .bind("merchantId", payment.merchantId())
                .bind("mode", payment.mode().wireName())
                .bind("linkId", payment.linkId())
                .bind("networkId", payment.networkId())
                .bind("txHash", payment.txHash())
                .bind("confirmations", payment.confirmations())
                .bind("amount", new BigDecimal(payment.amount()))
                .bind("wallet", payment.userWalletAddress())
                .bind("status", payment.status())
                .bind("startsAt", utc(payment.startsAt()))
                .bind("endsAt", utc(payment.endsAt()))
                .bind("createdAt", utc(payment.createdAt()))
                .bind("updatedAt", utc(payment.updatedAt()));
        spec = SqlValues.bind(spec, "blockNumber", payment.blockNumber(), Long.class);
        spec = SqlValues.bind(spec, "blockHash", payment.blockHash(), String.class);
        spec = SqlValues.bind(spec, "logIndex", payment.logIndex(), Integer.class);
        spec = SqlValues.bind(spec, "paidAt", payment.paidAt());
        spec = SqlValues.bind(spec, "nextBillingAt", payment.nextBillingAt());
        return spec.then();
    }

    /** Forgets that subscription.expiring was written, after expires_at moved. */
    public Mono<Void> resetExpiryNotice(UUID id) {
        return database.sql("UPDATE subscription_link SET expiring_notified_at = NULL WHERE id = :id")
                .bind("id", id)
                .then();
    }

    /** The link of a subscriber, if it enrolled. */
    public Mono<SubscriptionLink> ofSubscriber(UUID subscriberId) {
        return database.sql("SELECT " + COLUMNS + FROM + " WHERE l.subscriber_id = :id")
                .bind("id", subscriberId)
                .map(LinkRepository::read)
                .one();
    }

    public Mono<SubscriptionLink> find(MerchantIdentity merchant, UUID id) {
        Where where = Where.merchant(merchant, "l.").equal("l.id", "id", id);
        return where.bind(database.sql("SELECT " + COLUMNS + FROM + " WHERE " + where.clause()))
                .map(LinkRepository::read)
                .one();
    }

    public Mono<Long> count(Where where) {
        return where.bind(database.sql("SELECT count(*) AS total" + FROM + " WHERE " + where.clause()))
                .map(row -> row.get("total", Long.class))
                .one();
    }

    public Flux<SubscriptionLink> page(Where where, int limit, long offset) {
        return where.bind(database.sql("SELECT " + COLUMNS + FROM + " WHERE " + where.clause()
                        + " ORDER BY l.created_at DESC, l.id DESC LIMIT :limit OFFSET :offset"))
                .bind("limit", limit)
                .bind("offset", offset)
                .map(LinkRepository::read)
                .all();
    }

    /** The links of these subscribers, by subscriber id (a subscriber has at most one). */
    public Mono<Map<UUID, SubscriptionLink>> ofSubscribers(List<UUID> subscriberIds) {
        if (subscriberIds.isEmpty()) {
            return Mono.just(Map.of());
        }
        return database.sql("SELECT " + COLUMNS + FROM + " WHERE l.subscriber_id = ANY(:ids)")
                .bind("ids", subscriberIds.toArray(new UUID[0]))
                .map(LinkRepository::read)
                .all()
                .collectMap(SubscriptionLink::subscriberId, Function.identity());
    }

    /** The payments of these links, oldest period first, by link id. */
    public Mono<Map<UUID, List<SubscriptionPayment>>> payments(List<UUID> linkIds) {
        if (linkIds.isEmpty()) {
            return Mono.just(Map.of());
        }
        return database.sql("SELECT " + PAYMENT_COLUMNS
                        + " FROM subscription_payment WHERE link_id = ANY(:ids) ORDER BY starts_at, id")
                .bind("ids", linkIds.toArray(new UUID[0]))
                .map(LinkRepository::readPayment)
                .all()
                .collectList()
                .map(rows -> rows.stream().collect(Collectors.groupingBy(SubscriptionPayment::linkId)));
    }

    static SubscriptionPayment readPayment(Readable row) {
        return new SubscriptionPayment(
                row.get("id", UUID.class),
                row.get("merchant_id", UUID.class),
                Mode.fromWireName(row.get("mode", String.class)),
                row.get("link_id", UUID.class),
                row.get("network_id", UUID.class),
                row.get("tx_hash", String.class),
                row.get("block_number", Long.class),
                row.get("block_hash", String.class),
                row.get("log_index", Integer.class),
                row.get("confirmations", Integer.class),
                row.get("amount", BigDecimal.class).toBigIntegerExact(),
                row.get("user_wallet_address", String.class),
                row.get("status", String.class),
                instant(row.get("paid_at", OffsetDateTime.class)),
                instant(row.get("starts_at", OffsetDateTime.class)),
                instant(row.get("ends_at", OffsetDateTime.class)),
                instant(row.get("next_billing_at", OffsetDateTime.class)),
                row.get("collected_after_stop", Boolean.class),
                instant(row.get("created_at", OffsetDateTime.class)),
                instant(row.get("updated_at", OffsetDateTime.class)));
    }

    public static SubscriptionLink read(Readable row) {
        return new SubscriptionLink(
                row.get("id", UUID.class),
                row.get("merchant_id", UUID.class),
                Mode.fromWireName(row.get("mode", String.class)),
                row.get("plan_id", UUID.class),
                row.get("subscriber_id", UUID.class),
                row.get("wallet_address", String.class),
                row.get("subscribe_hash", String.class),
                row.get("subscription_onchain_id", Long.class),
                ChainStatus.fromWireName(row.get("chain_status", String.class)),
                row.get("chain_subscription_id", String.class),
                row.get("approvals", String.class),
                row.get("owed", BigDecimal.class).toBigIntegerExact(),
                row.get("paid_periods", Integer.class),
                row.get("locked", Boolean.class),
                instant(row.get("subscribed_at", OffsetDateTime.class)),
                instant(row.get("trial_ends_at", OffsetDateTime.class)),
                instant(row.get("expires_at", OffsetDateTime.class)),
                row.get("is_active", Boolean.class),
                instant(row.get("period_due_at", OffsetDateTime.class)),
                row.get("missed_periods", Integer.class),
                instant(row.get("created_at", OffsetDateTime.class)),
                instant(row.get("updated_at", OffsetDateTime.class)));
    }
}
