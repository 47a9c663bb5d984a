package dev.cryptopay.subscriptions.subscription;

import dev.cryptopay.auth.internal.MerchantIdentity;
import dev.cryptopay.service.error.ApiException;
import dev.cryptopay.subscriptions.plan.PlanService;
import dev.cryptopay.subscriptions.plan.PlanView;
import org.springframework.stereotype.Service;
import reactor.core.publisher.Mono;

/**
 * A merchant's report of a period's payment ({@code POST /public/subscriptions/link/payment}) is a claim, checked
 * against what the chain showed: it answers the payment the service recorded from the contract's confirmed
 * {@code Charged} log of that transaction for that link, and refuses (409) a transaction that holds none — a hash on
 * no chain, another wallet's transfer, an amount the contract did not collect, or a collection not confirmed yet.
 * Reporting is never needed: every collection is recorded from the chain on its own.
 */
@Service
public class PaymentService {

    private final LinkRepository links;
    private final PlanService plans;

    public PaymentService(LinkRepository links, PlanService plans) {
        this.links = links;
        this.plans = plans;
    }

    /** The payment the chain recorded and its link's plan. */
    public record Recorded(SubscriptionPayment payment, PlanView plan) {}

    public Mono<Recorded> confirm(MerchantIdentity merchant, PaymentRequest request) {
        return links.find(merchant, request.linkId())
                .switchIfEmpty(Mono.error(() -> ApiException.notFound("Subscription link not found")))
                .flatMap(link -> plans.findAny(link.planId()).flatMap(view -> {
                    check(request, view);
                    return links.paymentOf(merchant, request.networkId(), request.txHash(), link.id())
                            .filter(payment -> !payment.status().equals("failed"))
                            .switchIfEmpty(Mono.error(() -> notOnChain(request)))
                            .map(payment -> {
                                if (!payment.amount().equals(request.amountPaid())) {
                                    throw ApiException.invalidField(
                                            "amount_mismatch",
                                            "amount_paid",
                                            "amount_paid is not what the contract collected in this transaction ("
                                                    + payment.amount() + " base units)");
                                }
                                return new Recorded(payment, view);
                            });
                }));
    }

    private static void check(PaymentRequest request, PlanView view) {
        if (!request.networkId().equals(view.network().id())) {
            throw ApiException.invalidField(
                    "validation_failed",
                    "network_id",
                    "network_id is not the plan's network (" + view.network().name() + ")");
        }
        if (!request.currencyId().equals(view.token().currencyId())) {
            throw ApiException.invalidField(
                    "validation_failed",
                    "currency_id",
                    "currency_id is not the plan's currency (" + view.token().currencyCode() + ")");
        }
    }

    private static ApiException notOnChain(PaymentRequest request) {
        return ApiException.conflict(
                "payment_not_on_chain",
                "Transaction " + request.txHash() + " holds no confirmed collection of this link by the subscription"
                        + " contract. Payments are recorded from the chain once confirmed; if the transaction is"
                        + " recent, report it again after its confirmations");
    }
}
