package dev.cryptopay.paymentlinks.paymentlink;

import dev.cryptopay.auth.Mode;
import dev.cryptopay.service.events.EventType;
import dev.cryptopay.service.events.Transition;
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
    public static Transition<PaymentLink> create(PaymentLink draft) {
        PaymentLink link = draft.with(PaymentStatus.PENDING, 0, true, draft.createdAt());
        return Transition.to(link, EventType.PAYMENT_CREATED);
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
    public Transition<PaymentLink> cancel(Instant now) {
        if (status == PaymentStatus.CANCELLED) {
            return Transition.unchanged(this);
        }
        return Transition.to(with(PaymentStatus.CANCELLED, currentUses, false, now));
    }

    /** Stores the expiry of an unpaid link; only a pending link past its expires_at expires. */
    public Transition<PaymentLink> expire(Instant now) {
        if (status != PaymentStatus.PENDING || !isExpired(now)) {
            return Transition.unchanged(this);
        }
        return Transition.to(with(PaymentStatus.EXPIRED, currentUses, active, now), EventType.PAYMENT_FAILED);
    }

    /** Whether a new transaction moves this link: it is pending or processing (not past expiry) and active. */
    public boolean acceptsPayments(Instant now) {
        PaymentStatus current = effectiveStatus(now);
        return active && (current == PaymentStatus.PENDING || current == PaymentStatus.PROCESSING);
    }

    /**
     * The steps of a payment that arrived after the link stopped taking payments (expired, completed or cancelled):
     * the link stays as it is, and each step is announced with the event of the same step of a payment in time.
     */
    public Transition<PaymentLink> latePaymentPending() {
        return announced(EventType.PAYMENT_PENDING);
    }

    public Transition<PaymentLink> latePaymentConfirmed() {
        return announced(EventType.PAYMENT_COMPLETED);
    }

    public Transition<PaymentLink> latePaymentFailed() {
        return announced(EventType.PAYMENT_FAILED);
    }

    private Transition<PaymentLink> announced(EventType event) {
        return new Transition<>(this, List.of(event), false);
    }

    /** A transaction was seen on chain but is not confirmed yet. */
    public Transition<PaymentLink> transactionPending(Instant now) {
        requireAcceptingPayments(now);
        return Transition.to(with(PaymentStatus.PROCESSING, currentUses, active, now), EventType.PAYMENT_PENDING);
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
    public Transition<PaymentLink> transactionConfirmed(
            boolean wasPending, boolean coversAmount, boolean othersInFlight, Instant now) {
        if (!wasPending) {
            requireAcceptingPayments(now);
        } else if (status != PaymentStatus.PROCESSING && status != PaymentStatus.PENDING) {
            throw new IllegalTransitionException(
                    "Payment link is " + effectiveStatus(now).wireName() + " and cannot take this payment");
        }
        PaymentStatus waiting = othersInFlight ? PaymentStatus.PROCESSING : PaymentStatus.PENDING;
        if (!coversAmount) {
            return Transition.to(with(waiting, currentUses, active, now));
        }
        int uses = currentUses + 1;
        PaymentStatus next = uses >= maxUses ? PaymentStatus.COMPLETED : waiting;
        return Transition.to(with(next, uses, active, now), EventType.PAYMENT_COMPLETED);
    }

    /** A recorded transaction failed on chain; the link waits for payment again. */
    public Transition<PaymentLink> transactionFailed(boolean othersInFlight, Instant now) {
        PaymentStatus next = status == PaymentStatus.PROCESSING && !othersInFlight ? PaymentStatus.PENDING : status;
        return Transition.to(with(next, currentUses, active, now), EventType.PAYMENT_FAILED);
    }

    /** A refund was recorded for a confirmed transaction; the link's status and uses stay as they are. */
    public Transition<PaymentLink> refunded(Instant now) {
        return Transition.to(with(status, currentUses, active, now), EventType.PAYMENT_REFUNDED);
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
