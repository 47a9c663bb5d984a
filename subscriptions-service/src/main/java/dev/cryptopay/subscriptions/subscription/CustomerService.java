package dev.cryptopay.subscriptions.subscription;

import dev.cryptopay.service.error.ApiException;
import dev.cryptopay.subscriptions.config.SubscriptionsProperties;
import dev.cryptopay.subscriptions.plan.PlanService;
import dev.cryptopay.subscriptions.plan.PlanTypedData;
import dev.cryptopay.subscriptions.plan.PlanView;
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
    private final SubscriptionChanges changes;
    private final Allowances allowances;
    private final WalletProofs proofs;
    private final TransactionalOperator tx;
    private final Clock clock;

    public CustomerService(
            SubscriberRepository subscribers,
            PlanService plans,
            LinkRepository links,
            LinkService linkViews,
            SubscriptionsProperties properties,
            SubscriptionChanges changes,
            Allowances allowances,
            WalletProofs proofs,
            TransactionalOperator tx,
            Clock clock) {
        this.subscribers = subscribers;
        this.plans = plans;
        this.links = links;
        this.linkViews = linkViews;
        this.properties = properties;
        this.changes = changes;
        this.proofs = proofs;
        this.allowances = allowances;
        this.tx = tx;
        this.clock = clock;
    }

    /** A subscriber as its customer's flow shows it: its plan and, once enrolled, its link with the payments. */
    public record CustomerView(SubscriberView subscriber, LinkView link) {}

    /**
     * What a wallet needs to enrol an invited subscriber: the plan, the contract, its typed data and the approval to
     * make: the wallet's current allowance for the contract plus {@code periods} periods ({@code approvalAmount} base
     * units, at most 2^256 - 1), so that its other subscriptions in the token keep theirs.
     *
     * @param currentAllowance the wallet's allowance for the contract now; null when no node is configured to read it
     *     (the approval is then the periods alone)
     * @param resetFirst whether the approval is preceded by {@code approve(0)}: the current allowance is not zero, and
     *     tokens such as USDT refuse to change a non-zero allowance to another non-zero one
     * @param trialEndsAt when the trial would end if the customer enrolled now; null without a trial
     */
    public record Enrolment(
            Subscriber subscriber,
            PlanView plan,
            String walletAddress,
            String contract,
            PlanTypedData typedData,
            BigInteger currentAllowance,
            BigInteger approvalAmount,
            boolean resetFirst,
            int periods,
            Instant trialEndsAt) {}

    public Mono<CustomerView> get(UUID id) {
        return subscribers.findAny(id).switchIfEmpty(notFound()).flatMap(this::view);
    }

    /**
     * Name and e-mail changes, and cancelling; a cancellation writes {@code subscription.cancelled}. Once the customer
     * enrolled, {@code proof} must be the link wallet's signature of exactly this request: the subscriber id travels in
     * the invitation URL, so it alone never changes an enrolled subscription.
     */
    public Mono<CustomerView> update(UUID id, SubscriberRequest.Update update, WalletProof proof) {
        Instant now = clock.instant();
        Mono<Subscriber> change = subscribers
                .lockAny(id)
                .switchIfEmpty(notFound())
                .flatMap(subscriber -> links.ofSubscriber(subscriber.id())
                        .map(Optional::of)
                        .defaultIfEmpty(Optional.empty())
                        .flatMap(link -> link.map(enrolled -> proofs.check(proof, enrolled.walletAddress(), now))
                                .orElse(Mono.empty())
                                .thenReturn(link))
                        .flatMap(link -> {
                            if (update.status().hasValue() && update.status().value() != SubscriberStatus.CANCELLED) {
                                return Mono.error(ApiException.conflict(
                                        "status_not_allowed",
                                        "A customer can only cancel (status cancelled); other status changes are the"
                                                + " merchant's"));
                            }
                            // A lock on the link holds here too: cancelling through the subscriber changes the link.
                            if (update.status().given()
                                    && link.map(SubscriptionLink::locked).orElse(false)) {
                                return Mono.error(new ApiException(
                                        HttpStatus.LOCKED,
                                        "link_locked",
                                        "The subscription's link is locked; only its merchant can unlock it"));
                            }
                            return changes.subscriber(subscriber.update(update, now), now);
                        }));
        return tx.transactional(change).flatMap(this::view);
    }

    /**
     * What the wallet needs to enrol this invited subscriber: refused (409) once it is enrolled or cancelled, when
     * the plan is deprecated, or after the plan's subscribe deadline.
     */
    public Mono<Enrolment> prepare(UUID subscriberId, String walletAddress, int periods) {
        Instant now = clock.instant();
        return subscribers
                .findAny(subscriberId)
                .switchIfEmpty(notFound())
                .flatMap(subscriber -> plans.findAny(subscriber.planId()).flatMap(view -> {
                    Invitation.checkOpen(subscriber, view.plan(), now);
                    String contract = properties
                            .contract(view.network().chainId())
                            .orElseThrow(() -> ApiException.conflict(
                                    "network_unavailable",
                                    "Subscriptions are not available on "
                                            + view.network().name() + " now"));
                    BigInteger amount = view.plan().billedAmount().multiply(BigInteger.valueOf(periods));
                    if (amount.bitLength() > 256) {
                        throw ApiException.invalidField(
                                "validation_failed", "periods", "periods is too many: the approval exceeds uint256");
                    }
                    long trial = view.plan().terms().trialPeriod();
                    return allowances
                            .of(view.network().chainId(), view.token().contractAddress(), walletAddress, contract)
                            .map(current -> {
                                BigInteger total =
                                        current.map(amount::add).orElse(amount).min(SubscriptionLink.MAX_OWED);
                                return new Enrolment(
                                        subscriber,
                                        view,
                                        walletAddress,
                                        contract,
                                        PlanTypedData.of(
                                                view.plan().terms(),
                                                view.network().chainId(),
                                                contract),
                                        current.orElse(null),
                                        total,
                                        current.map(allowance -> allowance.signum() > 0)
                                                .orElse(false),
                                        periods,
                                        trial > 0 ? now.plus(Duration.ofSeconds(trial)) : null);
                            });
                }));
    }

    /**
     * A self-service sign-up: a new subscriber of the plan (no customer details yet; the enrolment brings the name and
     * e-mail), stored before the wallet subscribes so that the wallet's {@code ref} names it, and its enrolment kit.
     * Each call makes a new one, known only to its caller: someone who sees the wallet's transaction on chain sees the
     * {@code ref}, a hash, never the subscriber id an enrolment must name. Refused like an invitation's kit: 404 for
     * an unknown plan, 409 when it accepts no new subscribers.
     */
    public Mono<Enrolment> prepareSignUp(UUID planId, String walletAddress, int periods) {
        Instant now = clock.instant();
        Mono<Subscriber> created = plans.findAny(planId)
                .switchIfEmpty(Mono.error(() -> ApiException.notFound("Subscription plan not found")))
                .flatMap(view -> {
                    if (!view.plan().acceptsSubscribers()) {
                        return Mono.error(ApiException.conflict(
                                "plan_deprecated", "Subscription plan is deprecated and accepts no new subscribers"));
                    }
                    Subscriber subscriber = Subscriber.signUp(view.plan(), now);
                    return subscribers.insert(subscriber).thenReturn(subscriber);
                });
        return tx.transactional(created).flatMap(subscriber -> prepare(subscriber.id(), walletAddress, periods));
    }

    private Mono<CustomerView> view(Subscriber subscriber) {
        return plans.findAny(subscriber.planId())
                .zipWith(links.ofSubscriber(subscriber.id())
                        .flatMap(linkViews::view)
                        .map(Optional::of)
                        .defaultIfEmpty(Optional.<LinkView>empty()))
                .map(loaded -> new CustomerView(
                        new SubscriberView(
                                subscriber,
                                loaded.getT1(),
                                loaded.getT2().map(LinkView::link).orElse(null),
                                properties.subscriptionLinkUrl(subscriber.id())),
                        loaded.getT2().orElse(null)));
    }

    private static <T> Mono<T> notFound() {
        return Mono.error(() -> ApiException.notFound("Subscriber not found"));
    }
}
