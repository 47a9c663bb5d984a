package dev.cryptopay.subscriptions.billing;

import static dev.cryptopay.service.db.SqlValues.utc;

import dev.cryptopay.subscriptions.subscription.LinkRepository;
import dev.cryptopay.subscriptions.subscription.SubscriptionLink;
import java.time.Instant;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.stereotype.Repository;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * The scheduler's claims: rows are locked {@code FOR UPDATE SKIP LOCKED} inside the caller's transaction, so
 * instances running side by side never take the same link at once, and a crash rolls a claim back.
 */
@Repository
public class BillingRepository {

    private final DatabaseClient database;

    public BillingRepository(DatabaseClient database) {
        this.database = database;
    }

    /** Links still waiting for the chain to confirm their enrolment since before {@code since}. */
    public Flux<SubscriptionLink> claimUnconfirmed(Instant since, int limit) {
        return database.sql("SELECT " + LinkRepository.COLUMNS + LinkRepository.FROM + " " + """
                        WHERE l.chain_status = 'pending' AND l.updated_at < :since
                        ORDER BY l.updated_at
                        LIMIT :limit
                        FOR UPDATE OF l SKIP LOCKED""")
                .bind("since", utc(since))
                .bind("limit", limit)
                .map(LinkRepository::read)
                .all();
    }

    /** Active links whose expires_at is ahead but within {@code notice}, not yet announced as expiring. */
    public Flux<SubscriptionLink> claimExpiring(Instant now, Instant noticeUntil, int limit) {
        return database.sql("SELECT " + LinkRepository.COLUMNS + LinkRepository.FROM + " " + """
                        WHERE l.is_active AND l.expiring_notified_at IS NULL AND l.expires_at IS NOT NULL
                          AND l.expires_at > :now AND l.expires_at <= :noticeUntil
                        ORDER BY l.expires_at
                        LIMIT :limit
                        FOR UPDATE OF l SKIP LOCKED""")
                .bind("now", utc(now))
                .bind("noticeUntil", utc(noticeUntil))
                .bind("limit", limit)
                .map(LinkRepository::read)
                .all();
    }

    public Mono<Void> markExpiringNotified(SubscriptionLink link, Instant now) {
        return database.sql("UPDATE subscription_link SET expiring_notified_at = :now WHERE id = :id")
                .bind("now", utc(now))
                .bind("id", link.id())
                .then();
    }
}
