package dev.cryptopay.subscriptions.subscription;

import dev.cryptopay.auth.Mode;
import dev.cryptopay.service.events.EventType;
import dev.cryptopay.service.events.Transition;
import dev.cryptopay.subscriptions.plan.Plan;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.UUID;

/** A customer a merchant enrolled in a plan. {@code webhookMetadata} is the merchant's JSON object, as given. */
public record Subscriber(
        UUID id,
        UUID merchantId,
        Mode mode,
        UUID planId,
        String customerId,
        String customerName,
        String customerEmail,
        String webhookMetadata,
        String successReturnUrl,
        String failureReturnUrl,
        SubscriberStatus status,
        Instant createdAt,
        Instant updatedAt) {

    /**
     * A customer signing up to a plan on its own (no invitation): no details yet, waiting for its enrolment like an
     * invited one ({@code invitation_sent}).
     */
    public static Subscriber signUp(Plan plan, Instant now) {
        return new Subscriber(
                UUID.randomUUID(),
                plan.merchantId(),
                plan.mode(),
                plan.id(),
                null,
                null,
                null,
                null,
                null,
                null,
                SubscriberStatus.INVITATION_SENT,
                now,
                now);
    }

    /**
     * The merchant's or the customer's change: a member left out keeps its value, a cleared name or e-mail is removed,
     * and a status move emits the event of the status entered ({@link SubscriberStatus#eventOnEntry()}).
     */
    public Transition<Subscriber> update(SubscriberRequest.Update update, Instant now) {
        return change(
                update.customerName().applyTo(customerName),
                update.customerEmail().applyTo(customerEmail),
                update.status().applyTo(status),
                now);
    }

    /** Moves to {@code next} (cancelled when its link stops, active when the customer enrolled). */
    public Transition<Subscriber> moveTo(SubscriberStatus next, Instant now) {
        return change(customerName, customerEmail, next, now);
    }

    /**
     * The customer's details from its enrolment fill what the invitation left blank — they never replace the
     * merchant's; the status waits for the chain.
     */
    public Transition<Subscriber> details(String givenName, String givenEmail, Instant now) {
        return change(
                customerName == null ? givenName : customerName,
                customerEmail == null ? givenEmail : customerEmail,
                status,
                now);
    }

    /**
     * The customer enrolled: active, and the name and e-mail they gave fill what the invitation left blank — they
     * never replace the merchant's.
     */
    public Transition<Subscriber> enrolled(String givenName, String givenEmail, Instant now) {
        return change(
                customerName == null ? givenName : customerName,
                customerEmail == null ? givenEmail : customerEmail,
                SubscriberStatus.ACTIVE,
                now);
    }

    private Transition<Subscriber> change(String name, String email, SubscriberStatus next, Instant now) {
        if (Objects.equals(name, customerName) && Objects.equals(email, customerEmail) && next == status) {
            return Transition.unchanged(this);
        }
        Subscriber updated = new Subscriber(
                id,
                merchantId,
                mode,
                planId,
                customerId,
                name,
                email,
                webhookMetadata,
                successReturnUrl,
                failureReturnUrl,
                next,
                createdAt,
                now);
        // Only a status move emits, the event of the status entered.
        List<EventType> events =
                next == status ? List.of() : next.eventOnEntry().stream().toList();
        return new Transition<>(updated, events, true);
    }
}
