package dev.cryptopay.subscriptions.plan;

import java.util.UUID;

/** A plan's subscribers by state: all of them, active, active and still in trial, and suspended for non-payment. */
public record SubscriberCounts(UUID planId, long total, long active, long trial, long failed) {

    public static SubscriberCounts none(UUID planId) {
        return new SubscriberCounts(planId, 0, 0, 0, 0);
    }
}
