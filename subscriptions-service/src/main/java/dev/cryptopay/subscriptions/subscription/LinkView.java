package dev.cryptopay.subscriptions.subscription;

import dev.cryptopay.subscriptions.plan.PlanView;
import java.util.List;

/** A subscription link with what its answers show beside it: its subscriber, its plan and its payments. */
public record LinkView(
        SubscriptionLink link, Subscriber subscriber, PlanView plan, List<SubscriptionPayment> payments) {}
