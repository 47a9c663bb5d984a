package dev.cryptopay.subscriptions.subscription;

import dev.cryptopay.subscriptions.plan.PlanView;

/**
 * A subscriber with its plan and, once the customer enrolled, its link (null before).
 *
 * @param subscriptionLinkUrl the customer's invitation page
 */
public record SubscriberView(Subscriber subscriber, PlanView plan, SubscriptionLink link, String subscriptionLinkUrl) {}
