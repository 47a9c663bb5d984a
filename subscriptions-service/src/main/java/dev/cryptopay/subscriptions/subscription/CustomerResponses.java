package dev.cryptopay.subscriptions.subscription;

import dev.cryptopay.subscriptions.plan.PlanTypedData;
import dev.cryptopay.subscriptions.plan.PlanView;
import dev.cryptopay.subscriptions.plan.PublicPlanResponse;
import dev.cryptopay.subscriptions.plan.SubscriptionContractCalls;
import java.math.BigInteger;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import tools.jackson.databind.json.JsonMapper;

/**
 * What the customer's own flow answers; the subscriber id from the invitation link is what grants it. The wallet's
 * enrolment kit ({@link Preparation}) is public: the subscribe page answers the same kit.
 */
public final class CustomerResponses {

    private CustomerResponses() {}

    /**
     * A subscriber as its customer sees it: its own name and e-mail, the plan and (once enrolled) the link — not the
     * merchant's customer id or webhook metadata.
     *
     * @param subscribeBy when the invitation stops accepting an enrolment; null when it never does
     */
    record CustomerSubscriber(
            UUID id,
            UUID subscriptionPlanId,
            String subscriptionLinkUrl,
            String status,
            String customerName,
            String customerEmail,
            PublicPlanResponse subscriptionPlan,
            LinkResponse subscriptionLink,
            String successReturnUrl,
            String failureReturnUrl,
            Instant subscribeBy,
            Instant createdAt,
            Instant updatedAt) {

        static CustomerSubscriber of(CustomerService.CustomerView view, JsonMapper json) {
            Subscriber subscriber = view.subscriber().subscriber();
            return new CustomerSubscriber(
                    subscriber.id(),
                    subscriber.planId(),
                    view.subscriber().subscriptionLinkUrl(),
                    subscriber.status().wireName(),
                    subscriber.customerName(),
                    subscriber.customerEmail(),
                    PublicPlanResponse.of(view.subscriber().plan()),
                    view.link() == null ? null : LinkResponse.of(view.link(), LinkResponse.Audience.CUSTOMER, json),
                    subscriber.successReturnUrl(),
                    subscriber.failureReturnUrl(),
                    Invitation.openUntil(subscriber, view.subscriber().plan().plan()),
                    subscriber.createdAt(),
                    subscriber.updatedAt());
        }
    }

    /**
     * Everything a wallet needs to enrol: the merchant-signed plan to verify, the contract to approve and the
     * approval to make.
     *
     * @param typedData the plan's EIP-712 typed data; with {@code merchant_sig} a wallet can check the merchant's
     *     signature before approving anything
     * @param ref what ties the on-chain subscription to this invitation (the contract's {@code ref})
     * @param transactions what the wallet sends, in order: {@code approve(contract, 0)} when the current allowance is
     *     not zero, the approval, then {@code subscribe} (no end)
     * @param trialEndsAt when the trial would end if the customer enrolled now; null without a trial
     */
    public record Preparation(
            UUID subscriberId,
            String walletAddress,
            PublicPlanResponse plan,
            long chainId,
            String networkName,
            String subscriptionContract,
            PlanTypedData typedData,
            String digest,
            String merchantSig,
            Approval approval,
            String ref,
            List<WalletTransaction> transactions,
            Instant subscribeBy,
            Instant trialEndsAt) {

        public static Preparation of(CustomerService.Enrolment enrolment) {
            PlanView view = enrolment.plan();
            String ref = Invitation.ref(enrolment.subscriber().id());
            return new Preparation(
                    enrolment.subscriber().id(),
                    enrolment.walletAddress(),
                    PublicPlanResponse.of(view),
                    view.network().chainId(),
                    view.network().name(),
                    enrolment.contract(),
                    enrolment.typedData(),
                    enrolment.typedData().digest(),
                    view.plan().merchantSig(),
                    new Approval(
                            view.token().contractAddress(),
                            enrolment.contract(),
                            enrolment.currentAllowance() == null
                                    ? null
                                    : enrolment.currentAllowance().toString(),
                            enrolment.resetFirst(),
                            enrolment.approvalAmount().toString(),
                            view.token().format(enrolment.approvalAmount()),
                            view.token().decimals(),
                            view.token().currencyCode(),
                            enrolment.periods(),
                            view.network().name()),
                    ref,
                    kitTransactions(enrolment, view, ref),
                    Invitation.openUntil(enrolment.subscriber(), view.plan()),
                    enrolment.trialEndsAt());
        }
    }

    /** approve(0) when the current allowance is not zero, approve(contract, amount), then subscribe. */
    private static List<WalletTransaction> kitTransactions(
            CustomerService.Enrolment enrolment, PlanView view, String ref) {
        List<WalletTransaction> transactions = new ArrayList<>();
        String token = view.token().contractAddress();
        if (enrolment.resetFirst()) {
            transactions.add(new WalletTransaction(
                    token, SubscriptionContractCalls.approve(enrolment.contract(), BigInteger.ZERO), "0x0"));
        }
        transactions.add(new WalletTransaction(
                token, SubscriptionContractCalls.approve(enrolment.contract(), enrolment.approvalAmount()), "0x0"));
        transactions.add(new WalletTransaction(
                enrolment.contract(),
                SubscriptionContractCalls.subscribe(
                        view.plan().terms(), view.plan().merchantSig(), ref, 0),
                "0x0"));
        return List.copyOf(transactions);
    }

    /**
     * One transaction for the wallet to send as it is ({@code eth_sendTransaction} with these {@code to}, {@code data}
     * and {@code value}).
     *
     * @param value wei, as a 0x-hex quantity
     */
    public record WalletTransaction(String to, String data, String value) {}

    /**
     * The ERC-20 {@code approve(spender, amount)} to make: the wallet's current allowance for the contract plus
     * {@code periods} periods of the plan.
     *
     * @param currentAllowance the wallet's allowance for the contract now, base units; null when the service cannot
     *     read it (no node configured for the chain): {@code amount} is then the periods alone
     * @param resetFirst whether {@code transactions} begin with {@code approve(spender, 0)} (the current allowance is
     *     not zero: tokens such as USDT refuse to change one non-zero allowance to another)
     * @param amount base units, as a decimal string
     */
    public record Approval(
            String token,
            String spender,
            String currentAllowance,
            boolean resetFirst,
            String amount,
            String formattedAmount,
            int decimals,
            String currencySymbol,
            int periods,
            String networkName) {}
}
