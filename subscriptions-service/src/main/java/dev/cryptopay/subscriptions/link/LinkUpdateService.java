package dev.cryptopay.subscriptions.link;

import dev.cryptopay.auth.internal.MerchantIdentity;
import dev.cryptopay.service.error.ApiException;
import dev.cryptopay.subscriptions.subscriber.Subscriber;
import dev.cryptopay.subscriptions.subscriber.SubscriberChanges;
import dev.cryptopay.subscriptions.subscriber.SubscriberRepository;
import dev.cryptopay.subscriptions.subscriber.SubscriberStatus;
import java.time.Clock;
import java.time.Instant;
import java.util.UUID;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Service;
import org.springframework.transaction.reactive.TransactionalOperator;
import reactor.core.publisher.Mono;

/**
 * Changes to a link. Its customer (public route, reached with the link id) may change their name and e-mail, set
 * when the link expires, stop it ({@code is_active: false}, which cancels the subscription) and lock it. Its merchant
 * may change everything, including the trial's end, the debt and reactivation, and is the only one who unlocks: a
 * locked link refuses every other change with 423.
 */
@Service
public class LinkUpdateService {

    private final LinkRepository links;
    private final LinkService views;
    private final SubscriberRepository subscribers;
    private final SubscriberChanges changes;
    private final TransactionalOperator tx;
    private final Clock clock;

    public LinkUpdateService(
            LinkRepository links,
            LinkService views,
            SubscriberRepository subscribers,
            SubscriberChanges changes,
            TransactionalOperator tx,
            Clock clock) {
        this.links = links;
        this.views = views;
        this.subscribers = subscribers;
        this.changes = changes;
        this.tx = tx;
        this.clock = clock;
    }

    /** A change its customer asked for; {@code proof} must be its wallet's signature of exactly this request. */
    public Mono<LinkResponse> byCustomer(UUID id, LinkUpdate update, WalletProof proof) {
        Instant now = clock.instant();
        Mono<SubscriptionLink> change = links.lockAny(id)
                .switchIfEmpty(notFound())
                .flatMap(link -> {
                    proof.verify(link.walletAddress(), now);
                    if (update.isEmpty()) {
                        return Mono.just(link);
                    }
                    if (link.locked()) {
                        return Mono.error(locked("This link is locked; only its merchant can unlock it"));
                    }
                    if (update.trialEndsAt() != null || update.owed() != null) {
                        return Mono.error(ApiException.conflict(
                                "merchant_only",
                                "trial_ends_at and owed are set by the plan, payments and the merchant"));
                    }
                    if (Boolean.TRUE.equals(update.active()) && !link.active()) {
                        return Mono.error(
                                ApiException.conflict("merchant_only", "Only its merchant reactivates a link"));
                    }
                    boolean lock = Boolean.TRUE.equals(update.locked());
                    return apply(
                            link,
                            update.customerName(),
                            update.customerEmail(),
                            update.expiresAt(),
                            update.active(),
                            lock ? Boolean.TRUE : null,
                            null,
                            null,
                            now);
                });
        return tx.transactional(change).flatMap(views::forCustomer);
    }

    public Mono<LinkResponse> byMerchant(MerchantIdentity merchant, UUID id, LinkUpdate update) {
        Instant now = clock.instant();
        Mono<SubscriptionLink> change = links.lock(merchant, id)
                .switchIfEmpty(notFound())
                .flatMap(link -> {
                    boolean onlyLocking = update.equals(new LinkUpdate(null, null, null, null, null, true, null));
                    if (link.locked() && !Boolean.FALSE.equals(update.locked()) && !update.isEmpty() && !onlyLocking) {
                        return Mono.error(locked("This link is locked; send locked: false to unlock it"));
                    }
                    if (update.trialEndsAt() != null && update.trialEndsAt().isBefore(link.subscribedAt())) {
                        return Mono.error(ApiException.invalidField(
                                "validation_failed",
                                "trial_ends_at",
                                "trial_ends_at must not be before subscribed_at (" + link.subscribedAt() + ")"));
                    }
                    return apply(
                            link,
                            update.customerName(),
                            update.customerEmail(),
                            update.expiresAt(),
                            update.active(),
                            update.locked(),
                            update.owed(),
                            update.trialEndsAt(),
                            now);
                });
        return tx.transactional(change).flatMap(link -> views.get(merchant, link.id()));
    }

    private Mono<SubscriptionLink> apply(
            SubscriptionLink link,
            String customerName,
            String customerEmail,
            Instant expiresAt,
            Boolean active,
            Boolean locked,
            java.math.BigInteger owed,
            Instant trialEndsAt,
            Instant now) {
        SubscriptionLink changed = link.changed(trialEndsAt, expiresAt, active, locked, owed, now);
        if (trialEndsAt != null && link.paidPeriods() == 0 && link.missedPeriods() == 0) {
            // Nothing was billed yet: the first period starts at the new end of the trial.
            changed = changed.firstPeriodAt(trialEndsAt);
        }
        boolean stopping = link.active() && !changed.active();
        boolean restarting = !link.active() && changed.active();
        if (restarting) {
            if (changed.expiresAt() != null && !changed.expiresAt().isAfter(now)) {
                return Mono.error(ApiException.conflict(
                        "link_expired",
                        "The link expired at " + changed.expiresAt() + "; move expires_at to restart it"));
            }
            // Billing resumes now: the time the link stood still is not charged as missed periods.
            changed = changed.restarted(now);
        }
        boolean expiryMoved = expiresAt != null && !expiresAt.equals(link.expiresAt());
        SubscriptionLink saved = changed;
        SubscriberStatus newStatus =
                stopping ? SubscriberStatus.CANCELLED : restarting ? SubscriberStatus.ACTIVE : null;
        return subscribers.lockAny(link.subscriberId()).flatMap(subscriber -> {
            Subscriber.Change applied = subscriber.update(customerName, customerEmail, newStatus, now);
            // A new expiry gets its own expiring notice.
            Mono<Void> notice = expiryMoved ? links.resetExpiryNotice(link.id()) : Mono.empty();
            return links.update(saved)
                    .then(notice)
                    .then(changes.save(subscriber, applied, now))
                    .thenReturn(saved);
        });
    }

    private static ApiException locked(String message) {
        return new ApiException(HttpStatus.LOCKED, "link_locked", message);
    }

    private static <T> Mono<T> notFound() {
        return Mono.error(() -> ApiException.notFound("Subscription link not found"));
    }
}
