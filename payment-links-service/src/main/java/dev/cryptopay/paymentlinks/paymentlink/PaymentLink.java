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

    /**
     * Whether a transfer of {@code tokenContract} (lower case; null for the network's native coin) can pay this link:
     * it is the link's own token. A link from before on-chain receiving names no token and takes what it is sent.
     */
    public boolean takesAsset(String tokenContract) {
        if (payment == null) {
            return true;
        }
        String own = payment.tokenContract();
        return own == null ? tokenContract == null : own.equalsIgnoreCase(tokenContract);
    }

    /** Whether a new transaction moves this link: it is pending or processing (not past expiry) and active. */
    public boolean acceptsPayments(Instant now) {
        PaymentStatus current = effectiveStatus(now);
        return active && (current == PaymentStatus.PENDING || current == PaymentStatus.PROCESSING);
    }

    /**
     * Whether the confirmation of a transaction can still count for this link: one first seen now needs a link that
     * {@linkplain #acceptsPayments accepts payments}; one recorded pending before needs a link still pending or
     * processing (it may have expired meanwhile, but not completed its uses or been cancelled).
     */
    public boolean countsConfirmation(boolean wasPending, Instant now) {
        return wasPending
                ? status == PaymentStatus.PENDING || status == PaymentStatus.PROCESSING
                : acceptsPayments(now);
    }

    /**
     * The steps of a payment that arrived after the link stopped taking payments (expired, completed, cancelled or
     * inactive): it is recorded but completes nothing. Seen and failed are no news for the merchant; a confirmed one
     * is money on the merchant's address that no use counted, announced as {@code wallet.deposit} (with
     * {@link #lateReason()}) so the merchant can refund it or {@linkplain #latePaymentResolved accept it}.
     */
    public Transition<PaymentLink> latePaymentPending() {
        return Transition.unchanged(this);
    }

    public Transition<PaymentLink> latePaymentConfirmed() {
        return new Transition<>(this, List.of(EventType.WALLET_DEPOSIT), false);
    }

    public Transition<PaymentLink> latePaymentFailed() {
        return Transition.unchanged(this);
    }

    /** Why a late payment did not count: every use was taken already, or the link stopped taking payments. */
    public DepositReason lateReason() {
        return currentUses >= maxUses ? DepositReason.BEYOND_MAX_USES : DepositReason.LATE_PAYMENT;
    }

    /**
     * A transfer of another asset than the link's was confirmed: money on the merchant's address that cannot pay the
     * link, whatever its amount. The link does not change; it is announced as {@code wallet.deposit} (reason
     * {@link DepositReason#UNEXPECTED_ASSET}) so the merchant can return it. Seen, failed or refunded, it is no news.
     */
    public Transition<PaymentLink> unexpectedAssetConfirmed() {
        return new Transition<>(this, List.of(EventType.WALLET_DEPOSIT), false);
    }

    /**
     * The merchant accepted a late, confirmed payment that covers the amount: it counts as one use (even beyond
     * {@code max_uses}: the merchant chose to honour it), the link is completed once its uses reach
     * {@code max_uses} and otherwise keeps its status, and the use is announced as {@code payment.completed}.
     */
    public Transition<PaymentLink> latePaymentResolved(Instant now) {
        int uses = currentUses + 1;
        PaymentStatus next = uses >= maxUses ? PaymentStatus.COMPLETED : status;
        return Transition.to(with(next, uses, active, now), EventType.PAYMENT_COMPLETED);
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
