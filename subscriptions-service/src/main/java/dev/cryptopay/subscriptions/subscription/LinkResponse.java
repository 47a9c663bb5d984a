package dev.cryptopay.subscriptions.subscription;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.cryptopay.subscriptions.plan.PlanSummary;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * SubscriptionLinkResponse. {@code chain_status} says where the enrolment stands on chain ({@code pending},
 * {@code subscribed}, {@code failed}, {@code ended}); {@code chain_subscription_id} is the contract's id once the chain
 * confirmed it. {@code cancel_transaction} (present only on a link that no longer bills while the contract still holds
 * its subscription) ends it on chain; {@code collected_after_stop} says whether someone collected a period while the
 * link was stopped. {@code subscription_transactions}, {@code cancel_transaction}, {@code collected_after_stop} and
 * {@code plan} are present on the link routes and left out where a link is nested in a subscriber.
 */
public record LinkResponse(
        UUID id,
        UUID merchantUserId,
        UUID subscriptionPlanId,
        UUID subscriberId,
        Instant subscribedAt,
        Instant trialEndsAt,
        String walletAddress,
        String subscribeHash,
        Long subscriptionOnchainId,
        String chainStatus,
        String chainSubscriptionId,
        JsonNode approvals,
        String owed,
        int paidPeriods,
        boolean locked,
        String customerId,
        String customerEmail,
        String customerName,
        Instant expiresAt,
        boolean isActive,
        @JsonInclude(JsonInclude.Include.NON_NULL) CustomerResponses.WalletTransaction cancelTransaction,
        @JsonInclude(JsonInclude.Include.NON_NULL) Boolean collectedAfterStop,
        @JsonInclude(JsonInclude.Include.NON_NULL) List<PaymentResponse> subscriptionTransactions,
        @JsonInclude(JsonInclude.Include.NON_NULL) PlanSummary plan,
        Instant createdAt,
        Instant updatedAt) {

    /** SubscriptionResponse: one payment of the link; {@code plan} is the link's plan summary. */
    public record PaymentResponse(
            UUID id,
            UUID merchantId,
            UUID subLinkId,
            String txHash,
            Long blockNumber,
            String blockHash,
            int confirmations,
            UUID currencyId,
            UUID networkId,
            String amount,
            String userWalletAddress,
            Instant paidAt,
            String status,
            Instant startsAt,
            Instant endsAt,
            Instant nextBillingAt,
            boolean collectedAfterStop,
            PlanSummary plan,
            Instant createdAt,
            Instant updatedAt) {

        /** @param showMerchant false on public answers, which leave the merchant's account id out */
        public static PaymentResponse of(
                SubscriptionPayment payment, UUID currencyId, PlanSummary plan, boolean showMerchant) {
            return new PaymentResponse(
                    payment.id(),
                    showMerchant ? payment.merchantId() : null,
                    payment.linkId(),
                    payment.txHash(),
                    payment.blockNumber(),
                    payment.blockHash(),
                    payment.confirmations(),
                    currencyId,
                    payment.networkId(),
                    payment.amount().toString(),
                    payment.userWalletAddress(),
                    payment.paidAt(),
                    payment.status(),
                    payment.startsAt(),
                    payment.endsAt(),
                    payment.nextBillingAt(),
                    payment.collectedAfterStop(),
                    plan,
                    payment.createdAt(),
                    payment.updatedAt());
        }
    }

    /**
     * Who a link answer is for: its merchant sees everything; the customer's own flow (reached with the subscriber
     * id) sees the customer's name and e-mail but no merchant account or merchant customer id; a wallet lookup (anyone
     * may ask for an address) sees neither.
     */
    public enum Audience {
        MERCHANT,
        CUSTOMER,
        WALLET
    }

    /** A link with its payments and plan summary, as {@code audience} may see it. */
    public static LinkResponse of(LinkView view, Audience audience, JsonMapper json) {
        PlanSummary summary = PlanSummary.of(view.plan());
        boolean merchant = audience == Audience.MERCHANT;
        boolean customer = audience != Audience.WALLET;
        Subscriber subscriber = view.subscriber();
        return of(
                view.link(),
                json,
                merchant ? view.link().merchantId() : null,
                // The subscriber id opens the customer's own view: never shown to whoever looks up a wallet.
                customer ? view.link().subscriberId() : null,
                merchant ? subscriber.customerId() : null,
                customer ? subscriber.customerEmail() : null,
                customer ? subscriber.customerName() : null,
                view.cancelTransaction(),
                view.collectedAfterStop(),
                view.payments().stream()
                        .map(payment ->
                                PaymentResponse.of(payment, view.plan().token().currencyId(), summary, merchant))
                        .toList(),
                summary);
    }

    /** A link as its merchant's subscriber answer nests it: no payments, no plan summary. */
    public static LinkResponse nested(SubscriptionLink link, Subscriber owner, JsonMapper json) {
        return of(
                link,
                json,
                owner.merchantId(),
                owner.id(),
                owner.customerId(),
                owner.customerEmail(),
                owner.customerName(),
                null,
                null,
                null,
                null);
    }

    /**
     * @param cancelTransaction null when there is nothing to end on chain, or it is left out
     * @param collectedAfterStop null to leave it out (with the payments)
     * @param payments null to leave the payments out
     * @param plan null to leave the plan summary out
     */
    private static LinkResponse of(
            SubscriptionLink link,
            JsonMapper json,
            UUID merchantUserId,
            UUID subscriberId,
            String customerId,
            String customerEmail,
            String customerName,
            CustomerResponses.WalletTransaction cancelTransaction,
            Boolean collectedAfterStop,
            List<PaymentResponse> payments,
            PlanSummary plan) {
        return new LinkResponse(
                link.id(),
                merchantUserId,
                link.planId(),
                subscriberId,
                link.subscribedAt(),
                link.trialEndsAt(),
                link.walletAddress(),
                link.subscribeHash(),
                link.onchainId(),
                link.chainStatus().wireName(),
                link.chainSubscriptionId(),
                json.readTree(link.approvals()),
                link.owed().toString(),
                link.paidPeriods(),
                link.locked(),
                customerId,
                customerEmail,
                customerName,
                link.expiresAt(),
                link.active(),
                cancelTransaction,
                collectedAfterStop,
                payments,
                plan,
                link.createdAt(),
                link.updatedAt());
    }
}
