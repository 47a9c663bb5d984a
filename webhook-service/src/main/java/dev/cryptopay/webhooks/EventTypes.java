package dev.cryptopay.webhooks;

import java.util.List;

/** The event types a merchant may subscribe an endpoint to. */
public final class EventTypes {

    public static final List<String> ALL = List.of(
            "payment.created",
            "payment.pending",
            "payment.completed",
            "payment.failed",
            "payment.refunded",
            "transfer.initiated",
            "transfer.completed",
            "transfer.failed",
            "wallet.deposit",
            "wallet.withdrawal",
            "subscription.created",
            "subscription.activated",
            "subscription.paused",
            "subscription.cancelled",
            "subscription.payment.success",
            "subscription.payment.failed",
            "subscription.expiring");

    private EventTypes() {}
}
