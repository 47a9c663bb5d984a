package dev.cryptopay.subscriptions.subscriber;

import dev.cryptopay.service.error.ApiException;
import dev.cryptopay.subscriptions.config.SubscriptionsProperties;
import dev.cryptopay.subscriptions.link.LinkRepository;
import dev.cryptopay.subscriptions.link.LinkResponse;
import dev.cryptopay.subscriptions.link.LinkService;
import dev.cryptopay.subscriptions.link.SubscriptionLink;
import dev.cryptopay.subscriptions.plan.PlanService;
import dev.cryptopay.subscriptions.plan.PlanTypedData;
import dev.cryptopay.subscriptions.plan.PublicPlanResponse;
import dev.cryptopay.subscriptions.subscriber.CustomerResponses.Approval;
import dev.cryptopay.subscriptions.subscriber.CustomerResponses.CustomerSubscriber;
import dev.cryptopay.subscriptions.subscriber.CustomerResponses.Preparation;
import java.math.BigInteger;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Service;
import org.springframework.transaction.reactive.TransactionalOperator;
import reactor.core.publisher.Mono;

/**
 * The customer's side of a subscriber: reading it, changing the name and e-mail, cancelling, and preparing the
 * wallet's enrolment. A customer may only cancel; every other status move is the merchant's.
 */
@Service
public class CustomerService {

    private final SubscriberRepository subscribers;
    private final PlanService plans;
    private final LinkRepository links;
    private final LinkService linkViews;
    private final SubscriptionsProperties properties;
    private final SubscriberChanges changes;
    private final TransactionalOperator tx;
    private final Clock clock;

    public CustomerService(
            SubscriberRepository subscribers,
            PlanService plans,
            LinkRepository links,
            LinkService linkViews,
            SubscriptionsProperties properties,
            SubscriberChanges changes,
            TransactionalOperator tx,
            Clock clock) {
        this.subscribers = subscribers;
        this.plans = plans;
        this.links = links;
        this.linkViews = linkViews;
        this.properties = properties;
        this.changes = changes;
        this.tx = tx;
        this.clock = clock;
    }

    public Mono<CustomerSubscriber> get(UUID id) {
        return subscribers.findAny(id).switchIfEmpty(notFound()).flatMap(this::response);
    }

    /** Name and e-mail changes, and cancelling; a cancellation writes {@code subscription.cancelled}. */
    public Mono<CustomerSubscriber> update(UUID id, SubscriberRequest.Update update) {
        Instant now = clock.instant();
        Mono<Subscriber> change = subscribers
                .lockAny(id)
                .switchIfEmpty(notFound())
                .flatMap(subscriber -> {
                    if (update.status() != null && update.status() != SubscriberStatus.CANCELLED) {
                        return Mono.error(ApiException.conflict(
                                "status_not_allowed",
                                "A customer can only cancel (status cancelled); other status changes are the"
                                        + " merchant's"));
                    }
                    Subscriber.Change applied =
                            subscriber.update(update.customerName(), update.customerEmail(), update.status(), now);
                    // A lock on the link holds here too: cancelling through the subscriber is a change of it.
                    Mono<Void> lockCheck = update.status() == null
                            ? Mono.empty()
                            : links.ofSubscriber(subscriber.id())
                                    .filter(SubscriptionLink::locked)
                                    .flatMap(locked -> Mono.<Void>error(new ApiException(
                                            HttpStatus.LOCKED,
                                            "link_locked",
                                            "The subscription's link is locked; only its merchant can unlock it")));
                    return lockCheck.then(changes.save(subscriber, applied, now));
                });
        return tx.transactional(change).flatMap(this::response);
    }

    /**
     * What the wallet needs to enrol this invited subscriber: refused (409) once it is enrolled or cancelled, when
     * the plan is deprecated, or after the plan's subscribe deadline.
     */
    public Mono<Preparation> prepare(UUID subscriberId, String walletAddress, int periods) {
        Instant now = clock.instant();
        return subscribers
                .findAny(subscriberId)
                .switchIfEmpty(notFound())
                .flatMap(subscriber -> plans.findAny(subscriber.planId()).map(view -> {
                    Invitation.checkOpen(subscriber, view.plan(), now);
                    String contract = properties
                            .contract(view.network().chainId())
                            .orElseThrow(() -> ApiException.conflict(
                                    "network_unavailable",
                                    "Subscriptions are not available on "
                                            + view.network().name() + " now"));
                    PlanTypedData typedData =
                            PlanTypedData.of(view.plan().terms(), view.network().chainId(), contract);
                    BigInteger amount = view.plan().billedAmount().multiply(BigInteger.valueOf(periods));
                    if (amount.bitLength() > 256) {
                        throw ApiException.invalidField(
                                "validation_failed", "periods", "periods is too many: the approval exceeds uint256");
                    }
                    long trial = view.plan().terms().trialPeriod();
                    return new Preparation(
                            subscriber.id(),
                            walletAddress,
                            PublicPlanResponse.of(view),
                            view.network().chainId(),
                            view.network().name(),
                            contract,
                            typedData,
                            typedData.digest(),
                            view.plan().merchantSig(),
                            new Approval(
                                    view.token().contractAddress(),
                                    contract,
                                    amount.toString(),
                                    view.token().format(amount),
                                    view.token().decimals(),
                                    view.token().currencyCode(),
                                    periods,
                                    view.network().name()),
                            Invitation.openUntil(subscriber, view.plan()),
                            trial > 0 ? now.plus(Duration.ofSeconds(trial)) : null);
                }));
    }

    private Mono<CustomerSubscriber> response(Subscriber subscriber) {
        return plans.findAny(subscriber.planId())
                .zipWith(links.ofSubscriber(subscriber.id())
                        .flatMap(linkViews::forCustomer)
                        .map(Optional::of)
                        .defaultIfEmpty(Optional.<LinkResponse>empty()))
                .map(loaded -> new CustomerSubscriber(
                        subscriber.id(),
                        subscriber.planId(),
                        properties.subscriptionLinkUrl(subscriber.id()),
                        subscriber.status().wireName(),
                        subscriber.customerName(),
                        subscriber.customerEmail(),
                        PublicPlanResponse.of(loaded.getT1()),
                        loaded.getT2().orElse(null),
                        subscriber.successReturnUrl(),
                        subscriber.failureReturnUrl(),
                        Invitation.openUntil(subscriber, loaded.getT1().plan()),
                        subscriber.createdAt(),
                        subscriber.updatedAt()));
    }

    private static <T> Mono<T> notFound() {
        return Mono.error(() -> ApiException.notFound("Subscriber not found"));
    }
}
