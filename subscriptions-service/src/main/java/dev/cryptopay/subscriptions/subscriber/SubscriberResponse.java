package dev.cryptopay.subscriptions.subscriber;

import dev.cryptopay.subscriptions.link.LinkResponse;
import dev.cryptopay.subscriptions.plan.PlanSummary;
import java.time.Instant;
import java.util.UUID;
import tools.jackson.databind.JsonNode;

/**
 * SubscriberResponse: the subscriber with its plan summary and, once the customer enrolled, its subscription link
 * (null before).
 */
public record SubscriberResponse(
        UUID id,
        UUID subscriptionPlanId,
        UUID merchantUserId,
        String customerId,
        String customerName,
        String customerEmail,
        String subscriptionLinkUrl,
        String status,
        PlanSummary subscriptionPlan,
        LinkResponse subscriptionLink,
        JsonNode webhookMetadata,
        String successReturnUrl,
        String failureReturnUrl,
        Instant createdAt,
        Instant updatedAt) {

    /** The subscriber model of the lists' {@code data} arrays: the same fields without the nested objects. */
    public record Model(
            UUID id,
            UUID subscriptionPlanId,
            UUID merchantUserId,
            String customerId,
            String customerName,
            String customerEmail,
            String subscriptionLinkUrl,
            String status,
            JsonNode webhookMetadata,
            String successReturnUrl,
            String failureReturnUrl,
            Instant createdAt,
            Instant updatedAt) {}

    public Model model() {
        return new Model(
                id,
                subscriptionPlanId,
                merchantUserId,
                customerId,
                customerName,
                customerEmail,
                subscriptionLinkUrl,
                status,
                webhookMetadata,
                successReturnUrl,
                failureReturnUrl,
                createdAt,
                updatedAt);
    }
}
