package dev.cryptopay.chainwatcher.keeper;

import static dev.cryptopay.service.db.SqlValues.bind;
import static dev.cryptopay.service.db.SqlValues.instant;
import static dev.cryptopay.service.db.SqlValues.utc;

import io.r2dbc.spi.Readable;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.UUID;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.r2dbc.core.DatabaseClient.GenericExecuteSpec;
import org.springframework.stereotype.Repository;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * The subscriptions the keeper looks after, learnt from the subscription contract's logs that the scanner stores
 * ({@code contract_log}), with their state as last read, their next check time (chain time) and whether the platform
 * answers for them ({@link Scope}).
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
     * look after, its state to be read first; a Cancelled log still on the chain stops it; a Charged log still on the
     * chain forgets its failed collects (and brings it back if the keeper had given up on it). Other events are only
     * marked read.
     */
    Mono<Void> takeLogs(long chainId, String contract, Instant chainTime, Instant now) {
        // A period paid (a Charged log still on the chain, whoever collected it): its failures are forgotten.
        Mono<Void> paid = database.sql("""
                        UPDATE keeper_subscription s SET failures = 0, given_up_at = NULL, updated_at = :now
                        FROM contract_log l
                        WHERE l.chain_id = :chain AND l.contract = :contract AND NOT l.keeper_read
                              AND l.topics[1] = :charged AND l.status <> 'failed' AND NOT l.orphaned
                              AND s.chain_id = :chain AND s.subscription_id = l.topics[2]
                              AND (s.failures > 0 OR s.given_up_at IS NOT NULL)""")
                .bind("chain", chainId)
                .bind("contract", contract)
                .bind("charged", ContractEvents.CHARGED)
                .bind("now", utc(now))
                .then();
        return paid.then(database.sql("""
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
                .then());
    }

    /**
     * The subscriptions to look at now: those the platform answers for ({@code kept}) that are stale, or active with
     * their time come and not given up on ({@link #failed}), with no collect outstanding (sent and not yet confirmed or
     * given up). Stale ones (to be read again after a log of them, which every collect's {@code Charged} makes) and
     * due ones have a {@code limit} each, stale ones first: after a burst of collects, the re-reads never take the
     * places of the due ones, so a pass can spend its sends whatever came before it. Within each, every merchant
     * account takes its turn: every merchant's first (by check time), then every merchant's second, and so on, so one
     * merchant's many subscriptions never crowd out another's.
     */
    Flux<KeptSubscription> toCheck(long chainId, String contract, Instant chainTime, int limit) {
        return database.sql("""
                        WITH candidate AS (
                            SELECT s.*, row_number() OVER (
                                PARTITION BY s.stale, s.merchant_id
                                ORDER BY s.next_check_at, s.subscription_id) AS turn
                            FROM keeper_subscription s
                            WHERE s.chain_id = :chain AND s.contract = :contract AND s.scope = 'kept'
                                  AND (s.stale OR (s.active AND s.given_up_at IS NULL
                                                   AND s.next_check_at <= :chainTime))
                                  AND NOT EXISTS (
                                      SELECT 1 FROM keeper_transaction t
                                      WHERE t.chain_id = s.chain_id AND t.subscription_id = s.subscription_id
                                            AND t.status IN ('pending', 'replaced', 'mined')))
                        SELECT * FROM (
                            (SELECT * FROM candidate WHERE stale
                             ORDER BY turn, next_check_at, subscription_id LIMIT :limit)
                            UNION ALL
                            (SELECT * FROM candidate WHERE NOT stale
                             ORDER BY turn, next_check_at, subscription_id LIMIT :limit)) picked
                        ORDER BY stale DESC, turn, next_check_at, subscription_id""")
                .bind("chain", chainId)
                .bind("contract", contract)
                .bind("chainTime", utc(chainTime))
                .bind("limit", limit)
                .map(KeptSubscriptionRepository::row)
                .all();
    }

    /**
     * The subscriptions whose scope to ask about now: never asked yet, or out of scope and due to be asked again
     * (host time: it is about the platform's records, not the chain), still active or to be read; oldest question
     * first.
     */
    Flux<String> toAsk(long chainId, String contract, Instant now, int limit) {
        return database.sql("""
                        SELECT subscription_id FROM keeper_subscription
                        WHERE chain_id = :chain AND contract = :contract AND scope <> 'kept' AND (active OR stale)
                              AND (ask_again_at IS NULL OR ask_again_at <= :now)
                        ORDER BY ask_again_at NULLS FIRST, created_at, subscription_id
                        LIMIT :limit""")
                .bind("chain", chainId)
                .bind("contract", contract)
                .bind("now", utc(now))
                .bind("limit", limit)
                .map(row -> row.get("subscription_id", String.class))
                .all();
    }

    /** subscriptions-service says the platform answers for it: collected, in its merchant's turn. */
    Mono<Void> kept(long chainId, String subscriptionId, UUID merchantId, Instant now) {
        return database.sql("""
                        UPDATE keeper_subscription
                        SET scope = 'kept', merchant_id = :merchant, scope_reason = NULL, foreign_asks = 0,
                            ask_again_at = NULL, updated_at = :now
                        WHERE chain_id = :chain AND subscription_id = :id""")
                .bind("merchant", merchantId)
                .bind("now", utc(now))
                .bind("chain", chainId)
                .bind("id", subscriptionId)
                .then();
    }

    /**
     * subscriptions-service says the platform does not answer for it (now): never read nor collected, asked again ten
     * seconds later, then twenty, forty, … at most {@code maxWait} after the previous answer.
     */
    Mono<Void> foreign(
            long chainId, String subscriptionId, UUID merchantId, String reason, Duration maxWait, Instant now) {
        GenericExecuteSpec update = database.sql("""
                        UPDATE keeper_subscription
                        SET scope = 'foreign', merchant_id = COALESCE(:merchant, merchant_id), scope_reason = :reason,
                            foreign_asks = LEAST(foreign_asks + 1, 30),
                            ask_again_at = :now + LEAST(
                                make_interval(secs => :maxWait), make_interval(secs => 10) * power(2, foreign_asks)),
                            updated_at = :now
                        WHERE chain_id = :chain AND subscription_id = :id""")
                .bind("reason", reason)
                .bind("maxWait", (double) maxWait.toSeconds())
                .bind("now", utc(now))
                .bind("chain", chainId)
                .bind("id", subscriptionId);
        return bind(update, "merchant", merchantId, UUID.class).then();
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

    /**
     * One more of its collects failed in a row (a simulation that would revert, a collect that reverted on chain, or
     * one sent only to record missed periods). With {@code backOff}, it is looked at again {@code retry} × 2^(failures
     * before) later by chain time, at most a day; at {@code giveUpAfter} failures in a row the keeper gives up on it:
     * not looked at again until a log of it comes (which makes it stale) and a collect of it charges a period.
     * Answers whether it was given up on now.
     */
    Mono<Boolean> failed(
            long chainId,
            String subscriptionId,
            boolean backOff,
            Instant chainTime,
            Duration retry,
            int giveUpAfter,
            Instant now) {
        return database.sql("""
                        UPDATE keeper_subscription
                        SET failures = LEAST(failures + 1, 1000),
                            given_up_at = CASE WHEN given_up_at IS NULL AND failures + 1 >= :giveUpAfter THEN :now
                                               ELSE given_up_at END,
                            next_check_at = CASE WHEN :backOff THEN :chainTime + LEAST(make_interval(days => 1),
                                                     make_interval(secs => :retry) * power(2, LEAST(failures, 20)))
                                                 ELSE next_check_at END,
                            updated_at = :now
                        WHERE chain_id = :chain AND subscription_id = :id
                        RETURNING given_up_at = :now AS given_up""")
                .bind("giveUpAfter", giveUpAfter)
                .bind("backOff", backOff)
                .bind("chainTime", utc(chainTime))
                .bind("retry", (double) retry.toSeconds())
                .bind("now", utc(now))
                .bind("chain", chainId)
                .bind("id", subscriptionId)
                .map(row -> Boolean.TRUE.equals(row.get("given_up", Boolean.class)))
                .one()
                .defaultIfEmpty(false);
    }

    /** A collect of it charges a period: its failures are forgotten (and the keeper looks after it again). */
    Mono<Void> succeeded(long chainId, String subscriptionId, Instant now) {
        return database.sql(
                        "UPDATE keeper_subscription SET failures = 0, given_up_at = NULL, updated_at = :now "
                                + "WHERE chain_id = :chain AND subscription_id = :id AND (failures > 0 OR given_up_at IS NOT NULL)")
                .bind("now", utc(now))
                .bind("chain", chainId)
                .bind("id", subscriptionId)
                .then();
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
                instant(row.get("next_check_at", OffsetDateTime.class)),
                row.get("scope", String.class),
                row.get("failures", Integer.class),
                instant(row.get("given_up_at", OffsetDateTime.class)));
    }
}
