package dev.cryptopay.subscriptions.plan;

import dev.cryptopay.subscriptions.network.Network;
import dev.cryptopay.subscriptions.network.Token;
import java.util.List;

/** A plan with what its responses show beside it: network, token, subscriber counts and newest subscribers. */
public record PlanView(
        Plan plan, Network network, Token token, SubscriberCounts counts, List<PlanSubscriber> subscribers) {}
