package dev.cryptopay.paymentlinks.checkout;

import dev.cryptopay.paymentlinks.paymentlink.PaymentLink;
import dev.cryptopay.paymentlinks.paymentlink.PaymentStatus;
import dev.cryptopay.paymentlinks.transaction.PaymentProgress;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.Locale;

/** What the customer's checkout shows, decided from the link and its recorded transactions. */
public enum CheckoutState {
    /** Pending, nothing detected yet: the page shows how to pay. */
    AWAITING_PAYMENT("Awaiting payment", false),
    /** A transaction is seen on chain and waits for confirmations. */
    DETECTED("Payment detected", false),
    /** Confirmed payments below the amount while the link still waits: the page asks for the remainder. */
    UNDERPAID("Partial payment received", false),
    /** Completed. */
    PAID("Payment complete", true),
    /** Completed with more confirmed than the amount due. */
    OVERPAID("Payment complete, overpaid", true),
    /** Expired without payment. */
    EXPIRED("Payment link expired", true),
    /** Cancelled by the merchant. */
    CANCELLED("Payment cancelled", true),
    /** The link has no deposit address: the merchant had not registered a receiving key. */
    NOT_SET_UP("Payments not available yet", true);

    private final String title;
    private final boolean terminal;

    CheckoutState(String title, boolean terminal) {
        this.title = title;
        this.terminal = terminal;
    }

    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The heading the page shows and screen readers announce when the state changes. */
    public String title() {
        return title;
    }

    /** Whether nothing the customer can do changes the state any more (live updates stop, no auto refresh). */
    public boolean terminal() {
        return terminal;
    }

    /**
     * The rules, first match wins: cancelled → {@code cancelled}; completed → {@code overpaid} when the confirmed
     * total exceeds amount × uses, else {@code paid}; a transaction in flight → {@code detected}; no deposit address
     * → {@code not_set_up}; expired → {@code expired}; partial payments awaiting a top-up → {@code underpaid};
     * otherwise {@code awaiting_payment}.
     */
    public static CheckoutState decide(PaymentLink link, PaymentProgress progress, Instant now) {
        PaymentStatus status = link.effectiveStatus(now);
        if (status == PaymentStatus.CANCELLED) {
            return CANCELLED;
        }
        if (status == PaymentStatus.COMPLETED) {
            return excess(link, progress).signum() > 0 ? OVERPAID : PAID;
        }
        if (status == PaymentStatus.PROCESSING || progress.pendingTransactions() > 0) {
            return DETECTED;
        }
        if (link.payment() == null || link.payment().deposit() == null) {
            return NOT_SET_UP;
        }
        if (status == PaymentStatus.EXPIRED) {
            return EXPIRED;
        }
        return progress.partialTotal().signum() > 0 ? UNDERPAID : AWAITING_PAYMENT;
    }

    /** How much more than amount × uses was confirmed (zero or negative when nothing was overpaid). */
    static BigDecimal excess(PaymentLink link, PaymentProgress progress) {
        BigDecimal due = link.amount().multiply(BigDecimal.valueOf(link.currentUses()));
        return progress.confirmedTotal().subtract(due);
    }
}
