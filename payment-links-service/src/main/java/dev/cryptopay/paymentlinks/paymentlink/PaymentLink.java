package dev.cryptopay.paymentlinks.paymentlink;

import dev.cryptopay.auth.Mode;
import dev.cryptopay.service.events.EventType;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

/**
 * A payment link and every rule about how its status moves. Each transition returns the new state together with
 * the events it causes; a move the current status does not allow throws {@link IllegalTransitionException}.
 *
 * <p>Expiry is also read lazily: a pending link whose {@code expires_at} has passed is shown as {@code expired}
 * even before the sweeper has stored that, so what a merchant sees never depends on sweeper timing.
 *
 * @param cart            the normalised cart as JSON text, or null
 * @param webhookMetadata the merchant's metadata object as JSON text, or null
 * @param payment         where and how much it is paid on chain; null for links created before on-chain receiving
 */
public record PaymentLink(
        UUID id,
        UUID merchantId,
        Mode mode,
        String paymentName,
        String description,
        BigDecimal amount,
        String currency,
        String network,
        PaymentStatus status,
        Instant expiresAt,
        int maxUses,
        int currentUses,
        boolean active,
        String customerId,
        String customerName,
        String customerEmail,
        String productName,
        String productDescription,
        String cart,
        String orderId,
        boolean autoFill,
        String successUrl,
        String cancelUrl,
        String webhookMetadata,
        String checkoutMode,
        String origin,
        Instant createdAt,
        Instant updatedAt,
        ChainPayment payment) {

    /** A new link is pending, active and unused. */
    public static Transition create(PaymentLink draft) {
        PaymentLink link = draft.with(PaymentStatus.PENDING, 0, true, draft.createdAt());
        return new Transition(link, List.of(EventType.PAYMENT_CREATED));
    }

    public boolean isExpired(Instant now) {
        return !expiresAt.isAfter(now);
    }

    /** The status a reader sees now; a pending link past its expiry reads as expired. */
    public PaymentStatus effectiveStatus(Instant now) {
        return status == PaymentStatus.PENDING && isExpired(now) ? PaymentStatus.EXPIRED : status;
    }

    /** One-use links are one_time; a link that can be paid several times is recurring. */
    public String paymentType() {
        return maxUses == 1 ? "one_time" : "recurring";
    }

    /** Soft delete: any status may be cancelled; cancelling again changes nothing. */
    public Transition cancel(Instant now) {
        if (status == PaymentStatus.CANCELLED) {
            return Transition.unchanged(this);
        }
        return new Transition(with(PaymentStatus.CANCELLED, currentUses, false, now), List.of());
    }

    /** Stores the expiry of an unpaid link; only a pending link past its expires_at expires. */
    public Transition expire(Instant now) {
        if (status != PaymentStatus.PENDING || !isExpired(now)) {
            return Transition.unchanged(this);
        }
        return new Transition(with(PaymentStatus.EXPIRED, currentUses, active, now), List.of(EventType.PAYMENT_FAILED));
    }

    /** Whether a new transaction moves this link: it is pending or processing (not past expiry) and active. */
    public boolean acceptsPayments(Instant now) {
        PaymentStatus current = effectiveStatus(now);
        return active && (current == PaymentStatus.PENDING || current == PaymentStatus.PROCESSING);
    }

    /**
     * A payment that arrived after the link stopped taking payments (expired, completed or cancelled): it is
     * recorded and announced with {@code event}, marked late, and the link stays as it is.
     */
    public Transition latePayment(EventType event) {
        return new Transition(this, List.of(event), true);
    }

    /** A transaction was seen on chain but is not confirmed yet. */
    public Transition transactionPending(Instant now) {
        requireAcceptingPayments(now);
        return new Transition(
                with(PaymentStatus.PROCESSING, currentUses, active, now), List.of(EventType.PAYMENT_PENDING));
    }

    /**
     * A transaction was confirmed. When it covers the amount it completes one use, and the link is completed once
     * every use is taken; otherwise (an underpayment) no use is counted and the link waits for payment again.
     *
     * @param wasPending       whether this transaction had been recorded as pending before (the link then already
     *                         moved to processing and must accept the confirmation even if it expired meanwhile)
     * @param coversAmount     whether the confirmed crypto amount, together with the link's earlier partial payments
     *                         that no use has consumed, is at least the link amount
     * @param othersInFlight   whether other transactions of this link are still pending
     */
    public Transition transactionConfirmed(
            boolean wasPending, boolean coversAmount, boolean othersInFlight, Instant now) {
        if (!wasPending) {
            requireAcceptingPayments(now);
        } else if (status != PaymentStatus.PROCESSING && status != PaymentStatus.PENDING) {
            throw new IllegalTransitionException(
                    "Payment link is " + effectiveStatus(now).wireName() + " and cannot take this payment");
        }
        PaymentStatus waiting = othersInFlight ? PaymentStatus.PROCESSING : PaymentStatus.PENDING;
        if (!coversAmount) {
            return new Transition(with(waiting, currentUses, active, now), List.of());
        }
        int uses = currentUses + 1;
        PaymentStatus next = uses >= maxUses ? PaymentStatus.COMPLETED : waiting;
        return new Transition(with(next, uses, active, now), List.of(EventType.PAYMENT_COMPLETED));
    }

    /** A recorded transaction failed on chain; the link waits for payment again. */
    public Transition transactionFailed(boolean othersInFlight, Instant now) {
        PaymentStatus next = status == PaymentStatus.PROCESSING && !othersInFlight ? PaymentStatus.PENDING : status;
        return new Transition(with(next, currentUses, active, now), List.of(EventType.PAYMENT_FAILED));
    }

    /** A refund was recorded for a confirmed transaction; the link's status and uses stay as they are. */
    public Transition refunded(Instant now) {
        return new Transition(with(status, currentUses, active, now), List.of(EventType.PAYMENT_REFUNDED));
    }

    private void requireAcceptingPayments(Instant now) {
        PaymentStatus current = effectiveStatus(now);
        if (current != PaymentStatus.PENDING && current != PaymentStatus.PROCESSING) {
            throw new IllegalTransitionException(
                    "Payment link is " + current.wireName() + " and does not accept payments");
        }
        if (!active) {
            throw new IllegalTransitionException("Payment link is not active and does not accept payments");
        }
    }

    private PaymentLink with(PaymentStatus newStatus, int uses, boolean isActive, Instant now) {
        return new PaymentLink(
                id,
                merchantId,
                mode,
                paymentName,
                description,
                amount,
                currency,
                network,
                newStatus,
                expiresAt,
                maxUses,
                uses,
                isActive,
                customerId,
                customerName,
                customerEmail,
                productName,
                productDescription,
                cart,
                orderId,
                autoFill,
                successUrl,
                cancelUrl,
                webhookMetadata,
                checkoutMode,
                origin,
                createdAt,
                now,
                payment);
    }
}
