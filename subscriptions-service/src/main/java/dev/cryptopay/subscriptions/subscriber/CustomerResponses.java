package dev.cryptopay.subscriptions.subscriber;

import dev.cryptopay.subscriptions.link.LinkResponse;
import dev.cryptopay.subscriptions.plan.PlanTypedData;
import dev.cryptopay.subscriptions.plan.PublicPlanResponse;
import java.time.Instant;
import java.util.UUID;

/** What the customer's own flow answers; the subscriber id from the invitation link is what grants it. */
final class CustomerResponses {

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
            Instant updatedAt) {}

    /**
     * Everything a wallet needs to enrol: the merchant-signed plan to verify, the contract to approve and the
     * approval to make.
     *
     * @param typedData the plan's EIP-712 typed data; with {@code merchant_sig} a wallet can check the merchant's
     *     signature before approving anything
     * @param trialEndsAt when the trial would end if the customer enrolled now; null without a trial
     */
    record Preparation(
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
            Instant subscribeBy,
            Instant trialEndsAt) {}

    /**
     * The ERC-20 {@code approve(spender, amount)} to make: {@code periods} periods of the plan.
     *
     * @param amount base units, as a decimal string
     */
    record Approval(
            String token,
            String spender,
            String amount,
            String formattedAmount,
            int decimals,
            String currencySymbol,
            int periods,
            String networkName) {}
}
