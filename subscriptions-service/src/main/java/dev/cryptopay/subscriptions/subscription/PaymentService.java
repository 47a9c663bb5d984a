package dev.cryptopay.subscriptions.subscription;

import dev.cryptopay.auth.internal.MerchantIdentity;
import dev.cryptopay.service.error.ApiException;
import dev.cryptopay.service.events.Transition;
import dev.cryptopay.service.text.Storable;
import dev.cryptopay.subscriptions.plan.PlanService;
import dev.cryptopay.subscriptions.plan.PlanView;
import java.math.BigInteger;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.stereotype.Service;
import org.springframework.transaction.reactive.TransactionalOperator;
import reactor.core.publisher.Mono;

/**
 * Records a period's payment for a merchant's link: the oldest period neither paid nor missed is paid, the link's
 * count and debt move, and {@code subscription.payment.success} is written — one transaction, idempotent on
 * (merchant, mode, network, tx_hash): another merchant's record of the same hash is no obstacle.
 */
@Service
public class PaymentService {

    private final LinkRepository links;
    private final SubscriberRepository subscribers;
    private final PlanService plans;
    private final SubscriptionChanges changes;
    private final TransactionalOperator tx;
    private final Clock clock;

    public PaymentService(
            LinkRepository links,
            SubscriberRepository subscribers,
            PlanService plans,
            SubscriptionChanges changes,
            TransactionalOperator tx,
            Clock clock) {
        this.links = links;
        this.subscribers = subscribers;
        this.plans = plans;
        this.changes = changes;
        this.tx = tx;
        this.clock = clock;
    }

    /**
     * A recorded payment, whether this call recorded it (false: the same payment was already there), and its link's
     * plan.
     */
    public record Recorded(SubscriptionPayment payment, boolean created, PlanView plan) {}

    public Mono<Recorded> record(MerchantIdentity merchant, PaymentRequest request) {
        Mono<Recorded> work = links.paymentOf(merchant, request.networkId(), request.txHash())
                .flatMap(existing -> replay(existing, merchant, request))
                .switchIfEmpty(Mono.defer(() -> links.lock(merchant, request.linkId())
                        .switchIfEmpty(Mono.error(() -> ApiException.notFound("Subscription link not found")))
                        .flatMap(link -> plans.findAny(link.planId())
                                .flatMap(view -> pay(link, view, request, clock.instant())))));
        return tx.transactional(work)
                // Two reports of one transaction at once: the loser answers what the winner stored.
                .onErrorResume(
                        DuplicateKeyException.class,
                        raced -> links.paymentOf(merchant, request.networkId(), request.txHash())
                                .flatMap(existing -> replay(existing, merchant, request)));
    }

    private Mono<Recorded> replay(SubscriptionPayment existing, MerchantIdentity merchant, PaymentRequest request) {
        SubscriptionPayment same = sameOrConflict(existing, merchant, request);
        return links.find(merchant, same.linkId())
                .flatMap(link -> plans.findAny(link.planId()))
                .map(plan -> new Recorded(same, false, plan));
    }

    /** The same payment reported again is answered as recorded; the same transaction for anything else is a 409. */
    private static SubscriptionPayment sameOrConflict(
            SubscriptionPayment existing, MerchantIdentity merchant, PaymentRequest request) {
        if (!existing.merchantId().equals(merchant.merchantId())
                || !existing.linkId().equals(request.linkId())
                || !existing.amount().equals(request.amountPaid())) {
            throw ApiException.conflict("tx_hash_recorded", "This transaction is already recorded for another payment");
        }
        return existing;
    }

    private Mono<Recorded> pay(SubscriptionLink link, PlanView view, PaymentRequest request, Instant now) {
        if (!link.active()) {
            return Mono.error(ApiException.conflict("link_inactive", "This subscription link is no longer active"));
        }
        if (!request.networkId().equals(view.network().id())) {
            return Mono.error(ApiException.invalidField(
                    "validation_failed",
                    "network_id",
                    "network_id is not the plan's network (" + view.network().name() + ")"));
        }
        if (!request.currencyId().equals(view.token().currencyId())) {
            return Mono.error(ApiException.invalidField(
                    "validation_failed",
                    "currency_id",
                    "currency_id is not the plan's currency (" + view.token().currencyCode() + ")"));
        }
        BigInteger billed = view.plan().billedAmount();
        if (request.amountPaid().compareTo(billed) < 0) {
            return Mono.error(ApiException.invalidField(
                    "insufficient_payment",
                    "amount_paid",
                    "amount_paid is less than one period of the plan (" + billed + " base units)"));
        }
        Instant startsAt = link.periodDueAt() != null ? link.periodDueAt() : link.subscribedAt();
        if (link.expiresAt() != null && !startsAt.isBefore(link.expiresAt())) {
            return Mono.error(ApiException.conflict(
                    "link_expired", "The link expired at " + link.expiresAt() + "; no period after it is billed"));
        }
        Instant endsAt = startsAt.plus(Duration.ofSeconds(view.plan().terms().interval()));
        if (!Storable.inRange(endsAt)) {
            // Periods paid ahead one after the other would otherwise run past the dates the database stores.
            return Mono.error(ApiException.conflict(
                    "period_out_of_range",
                    "This payment would pay for a period ending after the year 9999 (periods are paid up to " + startsAt
                            + ")"));
        }
        boolean inBlock = request.blockNumber() != null;
        SubscriptionPayment payment = new SubscriptionPayment(
                UUID.randomUUID(),
                link.merchantId(),
                link.mode(),
                link.id(),
                request.networkId(),
                request.txHash(),
                request.blockNumber(),
                request.blockHash(),
                inBlock ? 1 : 0,
                request.amountPaid(),
                request.walletUsed(),
                inBlock ? "confirmed" : "pending",
                now,
                startsAt,
                endsAt,
                endsAt,
                now,
                now);
        return links.insert(payment)
                .then(subscribers.findAny(link.subscriberId()))
                .flatMap(subscriber -> changes.link(
                        link.paid(billed, request.amountPaid(), endsAt, now),
                        link,
                        Transition.unchanged(subscriber),
                        view,
                        new SubscriptionChanges.Payment(request.amountPaid(), request.txHash()),
                        now))
                .thenReturn(new Recorded(payment, true, view));
    }
}
