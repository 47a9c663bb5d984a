package dev.cryptopay.subscriptions.subscriber;

import dev.cryptopay.auth.Mode;
import dev.cryptopay.service.events.EventType;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
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

    /** The subscriber after an update, and the event its status change emits (none when the status stays). */
    public record Change(Subscriber subscriber, Optional<EventType> event) {}

    /** Applies a merchant's update; null arguments leave a field as it is. */
    public Change update(String newName, String newEmail, SubscriberStatus newStatus, Instant now) {
        String name = newName == null ? customerName : newName;
        String email = newEmail == null ? customerEmail : newEmail;
        SubscriberStatus status = newStatus == null ? this.status : newStatus;
        if (Objects.equals(name, customerName) && Objects.equals(email, customerEmail) && status == this.status) {
            return new Change(this, Optional.empty());
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
                status,
                createdAt,
                now);
        return new Change(updated, status == this.status ? Optional.empty() : status.eventOnEntry());
    }
}
