package dev.cryptopay.chainwatcher.keeper;

import static dev.cryptopay.service.db.SqlValues.bind;
import static dev.cryptopay.service.db.SqlValues.instant;
import static dev.cryptopay.service.db.SqlValues.utc;

import io.r2dbc.spi.Readable;
import java.time.Instant;
import java.time.OffsetDateTime;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.r2dbc.core.DatabaseClient.GenericExecuteSpec;
import org.springframework.stereotype.Repository;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * The subscriptions the keeper looks after, learnt from the subscription contract's logs that the scanner stores
 * ({@code contract_log}), with their state as last read and their next check time (chain time).
 */
@Repository
class KeptSubscriptionRepository {

    /** The events whose topic 1 is a subscription id. */
    private static final String[] SUBSCRIPTION_EVENTS = {
        ContractEvents.SUBSCRIBED, ContractEvents.CHARGED, ContractEvents.MISSED, ContractEvents.CANCELLED
    };

    private final DatabaseClient database;

    KeptSubscriptionRepository(DatabaseClient database) {
        this.database = database;
    }

    /**
     * Takes the contract's logs not read yet, in one statement (so none is lost between reading and marking): a
     * Subscribed, Charged or Missed log (or a Cancelled one a reorganisation took away) makes its subscription one to
     * look after, its state to be read first; a Cancelled log still on the chain stops it. Other events are only
     * marked read.
     */
    Mono<Void> takeLogs(long chainId, String contract, Instant chainTime, Instant now) {
        return database.sql("""
                        WITH unread AS (
                            UPDATE contract_log SET keeper_read = TRUE
                            WHERE chain_id = :chain AND contract = :contract AND NOT keeper_read
                            RETURNING topics, status, orphaned),
                        touched AS (
                            SELECT topics[2] AS id,
                                   bool_or(topics[1] = :cancelled AND status <> 'failed' AND NOT orphaned) AS cancelled
                            FROM unread WHERE topics[1] = ANY(:events) AND array_length(topics, 1) >= 2
                            GROUP BY topics[2])
                        INSERT INTO keeper_subscription (chain_id, subscription_id, contract, active, stale,
                            next_check_at, created_at, updated_at)
                        SELECT :chain, id, :contract, NOT cancelled, NOT cancelled, :chainTime, :now, :now
                        FROM touched
                        ON CONFLICT (chain_id, subscription_id) DO UPDATE
                            SET active = keeper_subscription.active AND EXCLUDED.active, stale = EXCLUDED.stale,
                                updated_at = EXCLUDED.updated_at""")
                .bind("chain", chainId)
                .bind("contract", contract)
                .bind("cancelled", ContractEvents.CANCELLED)
                .bind("events", SUBSCRIPTION_EVENTS)
                .bind("chainTime", utc(chainTime))
                .bind("now", utc(now))
                .then();
    }

    /**
     * The subscriptions to look at now, stale ones first, then by check time: active ones whose time came, with no
     * collect outstanding (sent and not yet confirmed or given up).
     */
    Flux<KeptSubscription> toCheck(long chainId, String contract, Instant chainTime, int limit) {
        return database.sql("""
                        SELECT * FROM keeper_subscription s
                        WHERE s.chain_id = :chain AND s.contract = :contract
                              AND (s.stale OR (s.active AND s.next_check_at <= :chainTime))
                              AND NOT EXISTS (
                                  SELECT 1 FROM keeper_transaction t
                                  WHERE t.chain_id = s.chain_id AND t.subscription_id = s.subscription_id
                                        AND t.status IN ('pending', 'replaced', 'mined'))
                        ORDER BY s.stale DESC, s.next_check_at
                        LIMIT :limit""")
                .bind("chain", chainId)
                .bind("contract", contract)
                .bind("chainTime", utc(chainTime))
                .bind("limit", limit)
                .map(KeptSubscriptionRepository::row)
                .all();
    }

    /** Stores the state just read and when to look again. */
    Mono<Void> read(long chainId, String subscriptionId, OnChainSubscription state, Instant nextCheck, Instant now) {
        GenericExecuteSpec update = database.sql("""
                        UPDATE keeper_subscription
                        SET active = :active, stale = FALSE, next_due = :nextDue, grace_seconds = :grace,
                            ends_at = :endsAt, missed_in_row = :missed, next_check_at = :nextCheck, updated_at = :now
                        WHERE chain_id = :chain AND subscription_id = :id""")
                .bind("active", state.active())
                .bind("nextDue", utc(state.nextDue()))
                .bind("grace", state.grace().toSeconds())
                .bind("missed", state.missedInRow())
                .bind("nextCheck", utc(nextCheck))
                .bind("now", utc(now))
                .bind("chain", chainId)
                .bind("id", subscriptionId);
        return bind(update, "endsAt", state.endsAt()).then();
    }

    /** The contract does not know it (its Subscribed log was taken away by a reorganisation): nothing to collect. */
    Mono<Void> unknown(long chainId, String subscriptionId, Instant now) {
        return database.sql("UPDATE keeper_subscription SET active = FALSE, stale = FALSE, updated_at = :now "
                        + "WHERE chain_id = :chain AND subscription_id = :id")
                .bind("now", utc(now))
                .bind("chain", chainId)
                .bind("id", subscriptionId)
                .then();
    }

    /** Its state is read again at the next check (a collect of it ended: confirmed or given up). */
    Mono<Void> markStale(long chainId, String subscriptionId, Instant now) {
        return database.sql("UPDATE keeper_subscription SET stale = TRUE, updated_at = :now "
                        + "WHERE chain_id = :chain AND subscription_id = :id")
                .bind("now", utc(now))
                .bind("chain", chainId)
                .bind("id", subscriptionId)
                .then();
    }

    /** One subscription (for tests and operators). */
    Mono<KeptSubscription> find(long chainId, String subscriptionId) {
        return database.sql("SELECT * FROM keeper_subscription WHERE chain_id = :chain AND subscription_id = :id")
                .bind("chain", chainId)
                .bind("id", subscriptionId)
                .map(KeptSubscriptionRepository::row)
                .one();
    }

    private static KeptSubscription row(Readable row) {
        return new KeptSubscription(
                row.get("chain_id", Long.class),
                row.get("subscription_id", String.class),
                row.get("active", Boolean.class),
                row.get("stale", Boolean.class),
                instant(row.get("next_due", OffsetDateTime.class)),
                instant(row.get("next_check_at", OffsetDateTime.class)));
    }
}
