package dev.cryptopay.subscriptions.plan;

import static dev.cryptopay.service.db.SqlValues.instant;
import static dev.cryptopay.service.db.SqlValues.utc;

import dev.cryptopay.auth.Mode;
import dev.cryptopay.auth.internal.MerchantIdentity;
import dev.cryptopay.service.db.SqlValues;
import dev.cryptopay.service.request.Where;
import io.r2dbc.spi.Readable;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.r2dbc.core.DatabaseClient.GenericExecuteSpec;
import org.springframework.stereotype.Repository;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/** Stores plans and answers their subscriber counts. Every merchant query filters by merchant id and mode. */
@Repository
public class PlanRepository {

    static final String COLUMNS = """
            id, merchant_id, mode, network_id, token_id, kind, merchant_address, destination_address, token_address,
            amount, signed_currency, signed_value, billed_amount, interval_seconds, trial_period, max_arrears,
            auto_cancel_after_missed, subscribe_deadline, plan_nonce, plan_id, digest, merchant_sig, revoked, source,
            name, description, metadata_uri, status, deprecated_at, created_at, updated_at""";

    /** How many of a plan's newest subscribers a plan response lists. */
    static final int LISTED_SUBSCRIBERS = 10;

    private final DatabaseClient database;

    public PlanRepository(DatabaseClient database) {
        this.database = database;
    }

    public Mono<Void> insert(Plan plan) {
        PlanTerms t = plan.terms();
        GenericExecuteSpec spec = database.sql("INSERT INTO plan (" + COLUMNS + ") VALUES (:id, :merchantId, :mode, "
                        + ":networkId, :tokenId, :kind, :merchantAddress, :destinationAddress, :tokenAddress, :amount, "
                        + ":currency, :value, :billedAmount, :interval, :trialPeriod, :maxArrears, :autoCancel, "
                        + ":subscribeDeadline, :planNonce, :planId, :digest, :merchantSig, :revoked, :source, :name, "
                        + ":description, :metadataUri, :status, :deprecatedAt, :createdAt, :updatedAt)")
                .bind("id", plan.id())
                .bind("merchantId", plan.merchantId())
                .bind("mode", plan.mode().wireName())
                .bind("networkId", plan.networkId())
                .bind("tokenId", plan.tokenId())
                .bind("kind", plan.kind())
                .bind("merchantAddress", t.merchant())
                .bind("destinationAddress", t.destination())
                .bind("tokenAddress", t.token())
                .bind("amount", new BigDecimal(t.amount()))
                .bind("currency", t.currency())
                .bind("value", t.value())
                .bind("billedAmount", new BigDecimal(plan.billedAmount()))
                .bind("interval", t.interval())
                .bind("trialPeriod", t.trialPeriod())
                .bind("maxArrears", t.maxArrears())
                .bind("autoCancel", t.autoCancelAfterMissed())
                .bind("subscribeDeadline", t.subscribeDeadline())
                .bind("planNonce", t.planNonce())
                .bind("planId", plan.planId())
                .bind("digest", plan.digest())
                .bind("merchantSig", plan.merchantSig())
                .bind("revoked", plan.revoked())
                .bind("source", plan.source())
                .bind("name", plan.name())
                .bind("status", plan.status().wireName())
                .bind("createdAt", utc(plan.createdAt()))
                .bind("updatedAt", utc(plan.updatedAt()));
        spec = SqlValues.bind(spec, "description", plan.description(), String.class);
        spec = SqlValues.bind(spec, "metadataUri", plan.metadataUri(), String.class);
        spec = SqlValues.bind(spec, "deprecatedAt", plan.deprecatedAt());
        return spec.then();
    }

    /** Writes the details a merchant may change. */
    public Mono<Void> updateDetails(Plan plan) {
        GenericExecuteSpec spec = database.sql("""
                        UPDATE plan SET name = :name, metadata_uri = :metadataUri, status = :status,
                               deprecated_at = :deprecatedAt, updated_at = :updatedAt
                        WHERE id = :id""")
                .bind("name", plan.name())
                .bind("status", plan.status().wireName())
                .bind("updatedAt", utc(plan.updatedAt()))
                .bind("id", plan.id());
        spec = SqlValues.bind(spec, "metadataUri", plan.metadataUri(), String.class);
        spec = SqlValues.bind(spec, "deprecatedAt", plan.deprecatedAt());
        return spec.then();
    }

    /**
     * Marks revoked every plan (of any merchant account) with this on-chain id signed by this merchant address: the
     * contract refuses them all alike. Answers how many changed.
     */
    public Mono<Long> revoke(String merchantAddress, String planId, Instant now) {
        return database.sql("UPDATE plan SET revoked = TRUE, updated_at = :now WHERE lower(plan_id) = lower(:planId)"
                        + " AND lower(merchant_address) = lower(:merchant) AND NOT revoked")
                .bind("now", utc(now))
                .bind("planId", planId)
                .bind("merchant", merchantAddress)
                .fetch()
                .rowsUpdated();
    }

    public Mono<Plan> find(MerchantIdentity merchant, UUID id) {
        return select(merchant, id, "");
    }

    /** Loads and row-locks a plan inside the caller's transaction. */
    public Mono<Plan> lock(MerchantIdentity merchant, UUID id) {
        return select(merchant, id, " FOR UPDATE");
    }

    private Mono<Plan> select(MerchantIdentity merchant, UUID id, String lockClause) {
        return database.sql("SELECT " + COLUMNS + " FROM plan WHERE id = :id AND merchant_id = :merchant "
                        + "AND mode = :mode" + lockClause)
                .bind("id", id)
                .bind("merchant", merchant.merchantId())
                .bind("mode", merchant.mode().wireName())
                .map(PlanRepository::read)
                .one();
    }

    /** A plan by id alone, for public routes and customer flows. */
    public Mono<Plan> findAny(UUID id) {
        return database.sql("SELECT " + COLUMNS + " FROM plan WHERE id = :id")
                .bind("id", id)
                .map(PlanRepository::read)
                .one();
    }

    /**
     * The plans among these ids, by id. The ids come from rows the caller already read for one merchant (its
     * subscribers or links), so no tenant condition is repeated here.
     */
    public Mono<Map<UUID, Plan>> findAll(List<UUID> ids) {
        if (ids.isEmpty()) {
            return Mono.just(Map.of());
        }
        return database.sql("SELECT " + COLUMNS + " FROM plan WHERE id = ANY(:ids)")
                .bind("ids", ids.toArray(new UUID[0]))
                .map(PlanRepository::read)
                .all()
                .collectMap(Plan::id);
    }

    /** Whether this merchant address already made a plan with this nonce on the network. */
    public Mono<Boolean> nonceUsed(MerchantIdentity merchant, UUID networkId, String merchantAddress, long nonce) {
        return database.sql("""
                        SELECT EXISTS (SELECT 1 FROM plan
                            WHERE merchant_id = :merchant AND mode = :mode AND network_id = :network
                              AND merchant_address = :address AND plan_nonce = :nonce) AS used""")
                .bind("merchant", merchant.merchantId())
                .bind("mode", merchant.mode().wireName())
                .bind("network", networkId)
                .bind("address", merchantAddress)
                .bind("nonce", nonce)
                .map(row -> row.get("used", Boolean.class))
                .one();
    }

    /** The next plan_nonce never used by this merchant address on the network (0 for the first plan). */
    public Mono<Long> nextNonce(MerchantIdentity merchant, UUID networkId, String merchantAddress) {
        return database.sql("""
                        SELECT COALESCE(MAX(plan_nonce) + 1, 0) AS next FROM plan
                        WHERE merchant_id = :merchant AND mode = :mode AND network_id = :network
                          AND merchant_address = :address""")
                .bind("merchant", merchant.merchantId())
                .bind("mode", merchant.mode().wireName())
                .bind("network", networkId)
                .bind("address", merchantAddress)
                .map(row -> row.get("next", Long.class))
                .one();
    }

    public Mono<Long> count(Where where) {
        return where.bind(database.sql("SELECT count(*) AS total FROM plan WHERE " + where.clause()))
                .map(row -> row.get("total", Long.class))
                .one();
    }

    public Flux<Plan> page(Where where, int limit, long offset) {
        return where.bind(database.sql("SELECT " + COLUMNS + " FROM plan WHERE " + where.clause()
                        + " ORDER BY created_at DESC, id DESC LIMIT :limit OFFSET :offset"))
                .bind("limit", limit)
                .bind("offset", offset)
                .map(PlanRepository::read)
                .all();
    }

    /** Subscriber counts of the plans: total, active, in trial (active, trial not over at {@code now}), failed. */
    public Mono<Map<UUID, SubscriberCounts>> counts(List<UUID> planIds, Instant now) {
        if (planIds.isEmpty()) {
            return Mono.just(Map.of());
        }
        return database.sql("""
                        SELECT s.plan_id,
                               count(*) AS total,
                               count(*) FILTER (WHERE s.status = 'active') AS active,
                               count(*) FILTER (WHERE s.status = 'active' AND l.trial_ends_at > :now) AS trial,
                               count(*) FILTER (WHERE s.status = 'suspended') AS failed
                        FROM subscriber s LEFT JOIN subscription_link l ON l.subscriber_id = s.id
                        WHERE s.plan_id = ANY(:plans)
                        GROUP BY s.plan_id""")
                .bind("plans", planIds.toArray(new UUID[0]))
                .bind("now", utc(now))
                .map(row -> new SubscriberCounts(
                        row.get("plan_id", UUID.class),
                        row.get("total", Long.class),
                        row.get("active", Long.class),
                        row.get("trial", Long.class),
                        row.get("failed", Long.class)))
                .all()
                .collectMap(SubscriberCounts::planId);
    }

    /** The newest {@value #LISTED_SUBSCRIBERS} subscribers of each plan, newest first. */
    public Mono<Map<UUID, List<PlanSubscriber>>> newestSubscribers(List<UUID> planIds) {
        if (planIds.isEmpty()) {
            return Mono.just(Map.of());
        }
        return database.sql("""
                        SELECT id, plan_id, customer_id, customer_name, customer_email, status, created_at FROM (
                            SELECT s.*, row_number() OVER (PARTITION BY plan_id ORDER BY created_at DESC, id DESC) AS n
                            FROM subscriber s WHERE plan_id = ANY(:plans)) ranked
                        WHERE n <= :listed ORDER BY created_at DESC, id DESC""")
                .bind("plans", planIds.toArray(new UUID[0]))
                .bind("listed", LISTED_SUBSCRIBERS)
                .map(row -> new PlanSubscriber(
                        row.get("id", UUID.class),
                        row.get("plan_id", UUID.class),
                        row.get("customer_id", String.class),
                        row.get("customer_name", String.class),
                        row.get("customer_email", String.class),
                        row.get("status", String.class),
                        row.get("created_at", OffsetDateTime.class).toInstant()))
                .all()
                .collectList()
                .map(rows -> rows.stream().collect(Collectors.groupingBy(PlanSubscriber::planId)));
    }

    static Plan read(Readable row) {
        PlanTerms terms = new PlanTerms(
                row.get("merchant_address", String.class),
                row.get("destination_address", String.class),
                row.get("token_address", String.class),
                integer(row.get("amount", BigDecimal.class)),
                row.get("signed_currency", String.class),
                row.get("signed_value", String.class),
                row.get("interval_seconds", Long.class),
                row.get("trial_period", Long.class),
                row.get("max_arrears", Long.class),
                row.get("auto_cancel_after_missed", Long.class),
                row.get("subscribe_deadline", Long.class),
                row.get("plan_nonce", Long.class));
        return new Plan(
                row.get("id", UUID.class),
                row.get("merchant_id", UUID.class),
                Mode.fromWireName(row.get("mode", String.class)),
                row.get("network_id", UUID.class),
                row.get("token_id", UUID.class),
                terms,
                integer(row.get("billed_amount", BigDecimal.class)),
                row.get("plan_id", String.class),
                row.get("digest", String.class),
                row.get("merchant_sig", String.class),
                row.get("revoked", Boolean.class),
                row.get("source", String.class),
                row.get("name", String.class),
                row.get("description", String.class),
                row.get("metadata_uri", String.class),
                PlanStatus.fromWireName(row.get("status", String.class)),
                instant(row.get("deprecated_at", OffsetDateTime.class)),
                instant(row.get("created_at", OffsetDateTime.class)),
                instant(row.get("updated_at", OffsetDateTime.class)));
    }

    private static BigInteger integer(BigDecimal value) {
        return value.toBigIntegerExact();
    }
}
