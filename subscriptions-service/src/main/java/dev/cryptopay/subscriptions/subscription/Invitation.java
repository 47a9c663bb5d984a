package dev.cryptopay.subscriptions.subscription;

import dev.cryptopay.service.error.ApiException;
import dev.cryptopay.subscriptions.plan.Plan;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import org.web3j.crypto.Hash;

/** Whether an invited subscriber may still enrol: the rules the enrolment kit and the enrolment itself share. */
public final class Invitation {

    private Invitation() {}

    /**
     * The 32 bytes that tie an on-chain subscription to this invitation (the contract's {@code ref}):
     * {@code keccak256(utf8("cryptopay.subscriber:" + subscriber id))}, 0x-hex.
     */
    public static String ref(UUID subscriberId) {
        return Hash.sha3String("cryptopay.subscriber:" + subscriberId);
    }

    /** When the invitation stops accepting an enrolment: created_at + subscribe_deadline, or never (null) at 0. */
    public static Instant openUntil(Subscriber subscriber, Plan plan) {
        long deadline = plan.terms().subscribeDeadline();
        return deadline > 0 ? subscriber.createdAt().plus(Duration.ofSeconds(deadline)) : null;
    }

    /**
     * Refuses (409) an enrolment of a subscriber that is cancelled or already enrolled, of a plan that accepts no
     * subscribers, or after the invitation's deadline.
     */
    public static void checkOpen(Subscriber subscriber, Plan plan, Instant now) {
        if (subscriber.status() == SubscriberStatus.CANCELLED) {
            throw ApiException.conflict("subscriber_cancelled", "This subscription was cancelled");
        }
        if (subscriber.status() != SubscriberStatus.INVITATION_SENT) {
            throw ApiException.conflict("already_enrolled", "This subscriber is already enrolled");
        }
        if (!plan.acceptsSubscribers()) {
            throw ApiException.conflict(
                    "plan_deprecated", "Subscription plan is deprecated and accepts no new subscribers");
        }
        Instant until = openUntil(subscriber, plan);
        if (until != null && now.isAfter(until)) {
            throw ApiException.conflict(
                    "subscribe_deadline_passed", "The invitation expired: enrolment was open until " + until);
        }
    }
}
