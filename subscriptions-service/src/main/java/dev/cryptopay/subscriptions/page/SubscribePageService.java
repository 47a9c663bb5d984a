package dev.cryptopay.subscriptions.page;

import dev.cryptopay.checkoutui.Explorers;
import dev.cryptopay.service.db.Uncancellable;
import dev.cryptopay.service.error.ApiException;
import dev.cryptopay.subscriptions.config.SubscriptionsProperties;
import dev.cryptopay.subscriptions.merchant.MerchantNames;
import dev.cryptopay.subscriptions.plan.Addresses;
import dev.cryptopay.subscriptions.plan.EthSignatures;
import dev.cryptopay.subscriptions.plan.PlanTypedData;
import dev.cryptopay.subscriptions.plan.PlanView;
import dev.cryptopay.subscriptions.subscription.CustomerService;
import dev.cryptopay.subscriptions.subscription.CustomerService.CustomerView;
import dev.cryptopay.subscriptions.subscription.CustomerService.Enrolment;
import dev.cryptopay.subscriptions.subscription.EnrolmentRequest;
import dev.cryptopay.subscriptions.subscription.EnrolmentService;
import dev.cryptopay.subscriptions.subscription.Invitation;
import dev.cryptopay.subscriptions.subscription.LinkView;
import dev.cryptopay.subscriptions.subscription.Subscriber;
import dev.cryptopay.subscriptions.subscription.SubscriptionLink;
import dev.cryptopay.subscriptions.subscription.SubscriptionPayment;
import java.math.BigInteger;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.springframework.stereotype.Service;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Reads what a subscribe page shows and enrols from it, through the customer's own service paths: the subscriber as
 * {@code GET /public/subscriber/{id}} reads it ({@link CustomerService#get}), the wallet's kit as
 * {@code GET /public/subscriber/prepare} answers it, the enrolment as {@code POST /public/subscriptions/link/} makes
 * it ({@link EnrolmentService#enrol}). Everything comes from the database on each read, so any instance answers any
 * customer and a stream sees changes made through any other instance.
 */
@Service
public class SubscribePageService {

    private final CustomerService customers;
    private final EnrolmentService enrolment;
    private final MerchantNames names;
    private final SubscriptionsProperties properties;
    private final Explorers explorers;
    private final Clock clock;

    public SubscribePageService(
            CustomerService customers,
            EnrolmentService enrolment,
            MerchantNames names,
            SubscriptionsProperties properties,
            Clock clock) {
        this.customers = customers;
        this.enrolment = enrolment;
        this.names = names;
        this.properties = properties;
        this.explorers = Explorers.of(properties.checkout().explorers());
        this.clock = clock;
    }

    /** The whole page's view: with the merchant's signature checked and, when it offers enrolment, the wallet's kit. */
    public Mono<SubscribeView> page(UUID subscriberId) {
        return found(subscriberId)
                .flatMap(found -> names.of(found.plan().plan().merchantId())
                        .map(name -> withMerchantName(found, name))
                        .defaultIfEmpty(found)
                        .flatMap(view -> checkedWithKit(subscriberId, view)));
    }

    private Mono<SubscribeView> checkedWithKit(UUID subscriberId, SubscribeView view) {
        SubscribeView checked = withSignature(view);
        if (!checked.state().enrols()) {
            return Mono.just(checked);
        }
        // The kit does not depend on the wallet (the contract takes msg.sender): the zero address stands in.
        return customers
                .prepare(subscriberId, Addresses.ZERO, properties.checkout().approvalPeriods())
                .map(kit -> withKit(checked, kit))
                .onErrorResume(ApiException.class, refused -> Mono.just(checked));
    }

    /** The view a status needs (no signature check, no kit); empty when there is no such subscriber. */
    public Mono<SubscribeView> status(UUID subscriberId) {
        return found(subscriberId);
    }

    /**
     * {@code first} and then each view that shows a visible change (a different {@link SubscribeStatus}), read every
     * poll interval; completes after a terminal state. A read still running when the next tick comes lets that tick
     * pass, so a slow database never queues reads up.
     */
    public Flux<SubscribeView> watch(SubscribeView first) {
        return Flux.interval(properties.checkout().pollInterval())
                .onBackpressureDrop()
                // The stream ends (client gone, terminal state, lifetime) whenever it likes; a read under way finishes.
                .concatMap(tick -> Uncancellable.read(found(first.subscriberId())), 1)
                .startWith(first)
                .distinctUntilChanged(SubscribeStatus::of)
                .takeUntil(view -> view.state().terminal());
    }

    /** What the wallet's enrolment kit is made of, exactly as {@code GET /public/subscriber/prepare} makes it. */
    public Mono<Enrolment> kit(UUID subscriberId, String walletAddress, int periods) {
        return customers.prepare(subscriberId, walletAddress, periods);
    }

    /**
     * Enrols the invited subscriber with the wallet's subscribe transaction, as {@code POST /public/subscriptions/link/}
     * does; the approval is the plan's token on its network, of {@code amountApproved} base units (null: the kit's,
     * {@code approval-periods} periods). Answers the page's view afterwards.
     */
    public Mono<SubscribeView> enrol(PageEnrolment request) {
        return customers.get(request.subscriberId()).flatMap(current -> {
            PlanView plan = current.subscriber().plan();
            BigInteger approved = request.amountApproved() != null
                    ? request.amountApproved()
                    : plan.plan()
                            .billedAmount()
                            .multiply(BigInteger.valueOf(properties.checkout().approvalPeriods()));
            EnrolmentRequest enrol = new EnrolmentRequest(
                    plan.plan().id(),
                    request.subscriberId(),
                    null,
                    null,
                    null,
                    null,
                    request.walletAddress(),
                    request.subscribeHash(),
                    List.of(new EnrolmentRequest.Approval(
                            request.approvalHash(),
                            plan.token().contractAddress(),
                            approved.toString(),
                            plan.network().name(),
                            plan.network().chainId(),
                            plan.token().decimals())),
                    null,
                    null);
            return enrolment.enrol(enrol).then(found(request.subscriberId()));
        });
    }

    private Mono<SubscribeView> found(UUID subscriberId) {
        return customers
                .get(subscriberId)
                .onErrorResume(
                        ApiException.class,
                        missing -> missing.status().value() == 404 ? Mono.empty() : Mono.error(missing))
                .map(this::view);
    }

    private SubscribeView view(CustomerView customer) {
        Instant now = clock.instant();
        Subscriber subscriber = customer.subscriber().subscriber();
        PlanView plan = customer.subscriber().plan();
        LinkView linkView = customer.link();
        SubscriptionLink link = linkView == null ? null : linkView.link();
        String contract = properties.contract(plan.network().chainId()).orElse(null);
        Instant openUntil = Invitation.openUntil(subscriber, plan.plan());
        long chainId = plan.network().chainId();
        List<PaymentLine> payments = linkView == null
                ? List.of()
                : linkView.payments().stream()
                        .map(payment -> line(payment, plan, chainId))
                        .toList();
        return new SubscribeView(
                SubscribeState.decide(subscriber, plan.plan(), link, openUntil, contract != null, now),
                subscriber,
                plan,
                null,
                link,
                contract,
                openUntil,
                null,
                null,
                payments,
                link == null
                        ? null
                        : explorers.transaction(chainId, link.subscribeHash()).orElse(null));
    }

    private PaymentLine line(SubscriptionPayment payment, PlanView plan, long chainId) {
        return new PaymentLine(
                payment.startsAt(),
                payment.endsAt(),
                plan.token().format(payment.amount()) + " " + plan.token().currencyCode(),
                payment.status(),
                payment.txHash(),
                explorers.transaction(chainId, payment.txHash()).orElse(null));
    }

    /** The view with the merchant's signature checked against this chain's contract (null without a contract). */
    private static SubscribeView withSignature(SubscribeView view) {
        Boolean verified = null;
        if (view.contract() != null) {
            String digest = PlanTypedData.of(view.terms(), view.network().chainId(), view.contract())
                    .digest();
            verified = EthSignatures.signer(digest, view.planRecord().merchantSig())
                    .map(signer -> Addresses.same(signer, view.terms().merchant()))
                    .orElse(false);
        }
        return new SubscribeView(
                view.state(),
                view.subscriber(),
                view.plan(),
                view.merchantName(),
                view.link(),
                view.contract(),
                view.openUntil(),
                verified,
                view.kit(),
                view.payments(),
                view.subscribeExplorerUrl());
    }

    private static SubscribeView withMerchantName(SubscribeView view, String name) {
        return new SubscribeView(
                view.state(),
                view.subscriber(),
                view.plan(),
                name,
                view.link(),
                view.contract(),
                view.openUntil(),
                view.signatureVerified(),
                view.kit(),
                view.payments(),
                view.subscribeExplorerUrl());
    }

    private static SubscribeView withKit(SubscribeView view, Enrolment kit) {
        return new SubscribeView(
                view.state(),
                view.subscriber(),
                view.plan(),
                view.merchantName(),
                view.link(),
                view.contract(),
                view.openUntil(),
                view.signatureVerified(),
                kit,
                view.payments(),
                view.subscribeExplorerUrl());
    }
}
