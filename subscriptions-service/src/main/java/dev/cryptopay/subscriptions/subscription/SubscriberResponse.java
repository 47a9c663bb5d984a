package dev.cryptopay.subscriptions.subscription;

import dev.cryptopay.subscriptions.plan.PlanSummary;
import java.time.Instant;
import java.util.UUID;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

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

    /** The subscriber as its merchant sees it, with the plan summary and the link nested (null before enrolment). */
    public static SubscriberResponse of(SubscriberView view, JsonMapper json) {
        Subscriber subscriber = view.subscriber();
        return new SubscriberResponse(
                subscriber.id(),
                subscriber.planId(),
                subscriber.merchantId(),
                subscriber.customerId(),
                subscriber.customerName(),
                subscriber.customerEmail(),
                view.subscriptionLinkUrl(),
                subscriber.status().wireName(),
                PlanSummary.of(view.plan()),
                view.link() == null ? null : LinkResponse.nested(view.link(), subscriber, json),
                subscriber.webhookMetadata() == null ? null : json.readTree(subscriber.webhookMetadata()),
                subscriber.successReturnUrl(),
                subscriber.failureReturnUrl(),
                subscriber.createdAt(),
                subscriber.updatedAt());
    }

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
