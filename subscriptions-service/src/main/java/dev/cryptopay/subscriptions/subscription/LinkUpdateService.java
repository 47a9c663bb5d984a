package dev.cryptopay.subscriptions.subscription;

import dev.cryptopay.auth.internal.MerchantIdentity;
import dev.cryptopay.service.error.ApiException;
import dev.cryptopay.service.request.Patch;
import dev.cryptopay.subscriptions.plan.PlanService;
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
    private final PlanService plans;
    private final SubscriptionChanges changes;
    private final WalletProofs proofs;
    private final TransactionalOperator tx;
    private final Clock clock;

    public LinkUpdateService(
            LinkRepository links,
            LinkService views,
            SubscriberRepository subscribers,
            PlanService plans,
            SubscriptionChanges changes,
            WalletProofs proofs,
            TransactionalOperator tx,
            Clock clock) {
        this.links = links;
        this.views = views;
        this.subscribers = subscribers;
        this.plans = plans;
        this.changes = changes;
        this.proofs = proofs;
        this.tx = tx;
        this.clock = clock;
    }

    /** A change its customer asked for; {@code proof} must be its wallet's signature of exactly this request. */
    public Mono<LinkView> byCustomer(UUID id, LinkUpdate update, WalletProof proof) {
        Instant now = clock.instant();
        Mono<SubscriptionLink> change = links.lockAny(id)
                .switchIfEmpty(notFound())
                .flatMap(link -> proofs.check(proof, link.walletAddress(), now).thenReturn(link))
                .flatMap(link -> {
                    if (update.isEmpty()) {
                        return Mono.just(link);
                    }
                    if (link.locked()) {
                        return Mono.error(locked("This link is locked; only its merchant can unlock it"));
                    }
                    if (update.trialEndsAt().given() || update.owed().given()) {
                        return Mono.error(ApiException.conflict(
                                "merchant_only",
                                "trial_ends_at and owed are set by the plan, payments and the merchant"));
                    }
                    if (Boolean.TRUE.equals(update.active().value()) && !link.active()) {
                        return Mono.error(
                                ApiException.conflict("merchant_only", "Only its merchant reactivates a link"));
                    }
                    // A customer may lock a link but never unlock it.
                    Patch<Boolean> lock =
                            Boolean.TRUE.equals(update.locked().value()) ? update.locked() : Patch.absent();
                    return apply(
                            link,
                            new LinkUpdate(
                                    Patch.absent(),
                                    update.customerEmail(),
                                    update.customerName(),
                                    update.expiresAt(),
                                    update.active(),
                                    lock,
                                    Patch.absent()),
                            now);
                });
        return tx.transactional(change).flatMap(views::view);
    }

    public Mono<LinkView> byMerchant(MerchantIdentity merchant, UUID id, LinkUpdate update) {
        Instant now = clock.instant();
        Mono<SubscriptionLink> change = links.lock(merchant, id)
                .switchIfEmpty(notFound())
                .flatMap(link -> {
                    boolean unlocking = Boolean.FALSE.equals(update.locked().value());
                    if (link.locked() && !unlocking && !update.isEmpty() && !update.onlyLocks()) {
                        return Mono.error(locked("This link is locked; send locked: false to unlock it"));
                    }
                    if (update.trialEndsAt().hasValue()
                            && update.trialEndsAt().value().isBefore(link.subscribedAt())) {
                        return Mono.error(ApiException.invalidField(
                                "validation_failed",
                                "trial_ends_at",
                                "trial_ends_at must not be before subscribed_at (" + link.subscribedAt() + ")"));
                    }
                    return apply(link, update, now);
                });
        return tx.transactional(change).flatMap(views::view);
    }

    /** The link's move and its subscriber's new details, stored together (stopping the link cancels it). */
    private Mono<SubscriptionLink> apply(SubscriptionLink link, LinkUpdate update, Instant now) {
        return subscribers
                .lockAny(link.subscriberId())
                .flatMap(subscriber -> plans.findAny(link.planId())
                        .flatMap(plan -> changes.link(
                                link.update(update, now),
                                link,
                                subscriber.update(update.subscriberDetails(), now),
                                plan,
                                null,
                                now)));
    }

    private static ApiException locked(String message) {
        return new ApiException(HttpStatus.LOCKED, "link_locked", message);
    }

    private static <T> Mono<T> notFound() {
        return Mono.error(() -> ApiException.notFound("Subscription link not found"));
    }
}
