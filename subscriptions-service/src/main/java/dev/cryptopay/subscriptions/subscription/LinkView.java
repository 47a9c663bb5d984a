package dev.cryptopay.subscriptions.subscription;

import dev.cryptopay.subscriptions.plan.PlanView;
import dev.cryptopay.subscriptions.plan.SubscriptionContractCalls;
import java.util.List;

/**
 * A subscription link with what its answers show beside it: its subscriber, its plan, its payments and the
 * subscription contract of the plan's network (null when none is configured).
 */
public record LinkView(
        SubscriptionLink link,
        Subscriber subscriber,
        PlanView plan,
        List<SubscriptionPayment> payments,
        String contract) {

    /**
     * The transaction that ends the link's subscription on chain, for a link that no longer bills while the contract
     * still holds it (stopped by its merchant, cancelled by its customer, or expired): from the subscriber's wallet or
     * the plan's merchant address. Null when there is nothing to end (active, never confirmed, ended already, or
     * recorded before links kept the contract's id).
     */
    public CustomerResponses.WalletTransaction cancelTransaction() {
        if (link.active()
                || link.chainStatus() != ChainStatus.SUBSCRIBED
                || link.chainSubscriptionId() == null
                || contract == null) {
            return null;
        }
        return new CustomerResponses.WalletTransaction(
                contract, SubscriptionContractCalls.cancel(link.chainSubscriptionId()), "0x0");
    }

    /** Whether any of its payments was collected while the link was stopped. */
    public boolean collectedAfterStop() {
        return payments.stream().anyMatch(SubscriptionPayment::collectedAfterStop);
    }
}
