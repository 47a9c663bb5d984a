package dev.cryptopay.paymentlinks.checkout;

import dev.cryptopay.auth.Mode;
import dev.cryptopay.paymentlinks.paymentlink.ChainPayment;
import dev.cryptopay.paymentlinks.paymentlink.PaymentLink;
import dev.cryptopay.paymentlinks.transaction.PaymentProgress;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.UUID;

/**
 * A link as its customer may see it at one moment: only customer-safe fields (no customer details, order id, webhook
 * metadata, merchant id or origin), the checkout state, and what to send now.
 *
 * @param payment            where the link is paid; null for links created before on-chain receiving
 * @param amountDue          what the customer should send now: the amount, or the remainder of an underpaid link
 * @param amountDueBaseUnits {@code amountDue} in the token's base units (rounded up); null without {@code payment}
 * @param received           the confirmed amount counted by this view: partial payments when underpaid, the confirmed
 *                           total otherwise
 * @param excess             how much more than due was received (positive only when overpaid)
 * @param expiresIn          time left until expires_at (zero once passed)
 * @param receipts           the confirmed transactions, shown once the link is paid; empty before
 * @param unexpectedAssets   what arrived in other assets than the link's (pending or confirmed, not returned): it
 *                           paid nothing, and the page says so
 */
public record CheckoutView(
        UUID paymentId,
        CheckoutState state,
        String paymentName,
        String description,
        String productName,
        BigDecimal amount,
        String currency,
        String network,
        boolean test,
        ChainPayment payment,
        int maxUses,
        Instant expiresAt,
        Duration expiresIn,
        String successUrl,
        String cancelUrl,
        Integer confirmations,
        Integer requiredConfirmations,
        BigDecimal amountDue,
        BigInteger amountDueBaseUnits,
        BigDecimal received,
        BigDecimal excess,
        List<PaymentReceipt> receipts,
        List<PaymentProgress.Arrived> unexpectedAssets) {

    private static final DateTimeFormatter EXPIRY =
            DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm 'UTC'").withZone(ZoneOffset.UTC);

    /** The checkout of {@code link} at {@code now}, given its recorded transactions. */
    public static CheckoutView of(PaymentLink link, PaymentProgress progress, Instant now) {
        CheckoutState state = CheckoutState.decide(link, progress, now);
        BigDecimal due = link.amount();
        BigDecimal received = progress.confirmedTotal();
        if (state == CheckoutState.UNDERPAID) {
            received = progress.partialTotal();
            due = link.amount().subtract(received);
        }
        ChainPayment payment = link.payment();
        BigInteger dueUnits = payment == null
                ? null
                : due.movePointRight(payment.decimals())
                        .setScale(0, RoundingMode.CEILING)
                        .toBigIntegerExact();
        Duration left = Duration.between(now, link.expiresAt());
        return new CheckoutView(
                link.id(),
                state,
                link.paymentName(),
                link.description(),
                link.productName(),
                link.amount(),
                link.currency(),
                link.network(),
                link.mode() == Mode.TEST,
                payment,
                link.maxUses(),
                link.expiresAt(),
                left.isNegative() ? Duration.ZERO : left,
                link.successUrl(),
                link.cancelUrl(),
                progress.confirmations(),
                progress.requiredConfirmations(),
                due,
                dueUnits,
                received,
                CheckoutState.excess(link, progress).max(BigDecimal.ZERO),
                List.of(),
                progress.unexpectedAssets());
    }

    /** This view with the paid link's receipts. */
    public CheckoutView withReceipts(List<PaymentReceipt> paid) {
        return new CheckoutView(
                paymentId,
                state,
                paymentName,
                description,
                productName,
                amount,
                currency,
                network,
                test,
                payment,
                maxUses,
                expiresAt,
                expiresIn,
                successUrl,
                cancelUrl,
                confirmations,
                requiredConfirmations,
                amountDue,
                amountDueBaseUnits,
                received,
                excess,
                List.copyOf(paid),
                unexpectedAssets);
    }

    /** Whether the page shows the receipt: the link is paid (or overpaid). */
    public boolean paid() {
        return state == CheckoutState.PAID || state == CheckoutState.OVERPAID;
    }

    /** The deposit address, or null when the link has none. */
    public String depositAddress() {
        return payment == null ? null : payment.depositAddress();
    }

    /** The EIP-681 request for {@link #amountDueBaseUnits()}, or null without a deposit address. */
    public String paymentUri() {
        return payment == null ? null : payment.uri(amountDueBaseUnits);
    }

    /**
     * Whether the page shows how to pay (address, amount, QR, wallet button, countdown): while waiting for payment
     * or a top-up, and on multi-use links also while another customer's payment is in flight.
     */
    public boolean showsPaymentInstructions() {
        return depositAddress() != null
                && (state == CheckoutState.AWAITING_PAYMENT
                        || state == CheckoutState.UNDERPAID
                        || (state == CheckoutState.DETECTED && maxUses > 1));
    }

    /** The sentence under the state's title. */
    public String detail() {
        return switch (state) {
            case AWAITING_PAYMENT ->
                "Send exactly " + plain(amountDue) + " " + currency + " on " + network
                        + " to the address below. This page updates when the payment arrives.";
            case DETECTED ->
                "Your payment has been seen on " + network + " and is waiting for confirmations. "
                        + "Keep this page open or come back later.";
            case UNDERPAID ->
                plain(received) + " " + currency + " of " + plain(amount) + " " + currency
                        + " has been received. Send the remaining " + plain(amountDue) + " " + currency
                        + " to complete the payment.";
            case PAID -> "Thank you. Your payment of " + plain(amount) + " " + currency + " has been received.";
            case OVERPAID ->
                "Your payment is complete, and " + plain(excess) + " " + currency + " more than the amount due"
                        + " was received. Refunds of the difference are handled by the merchant: please contact them.";
            case EXPIRED ->
                "This payment link expired at " + EXPIRY.format(expiresAt) + ". A payment sent now may still be"
                        + " recorded late, but it is not guaranteed: contact the merchant before sending anything,"
                        + " or if you already paid.";
            case CANCELLED ->
                "The merchant cancelled this payment request. Do not send a payment; contact the merchant if you"
                        + " already paid.";
            case NOT_SET_UP ->
                "This merchant has not set up receiving payments yet. Please contact the merchant to pay.";
        };
    }

    /**
     * What the page says about money of other assets than the link's at its address, or null when there is none:
     * "We received 5 USDT, but this link takes USDC. Contact the merchant — it was not counted." (several assets are
     * listed, and "they were not counted").
     */
    public String unexpectedAssetNotice() {
        if (unexpectedAssets.isEmpty()) {
            return null;
        }
        List<String> amounts = unexpectedAssets.stream()
                .map(arrived -> plain(arrived.amount()) + " " + arrived.asset())
                .toList();
        String received = amounts.size() == 1
                ? amounts.get(0)
                : String.join(", ", amounts.subList(0, amounts.size() - 1)) + " and " + amounts.get(amounts.size() - 1);
        return "We received " + received + ", but this link takes " + currency + ". Contact the merchant — "
                + (amounts.size() == 1 ? "it was" : "they were") + " not counted.";
    }

    /** "n of N confirmations", "n confirmations", or null when nothing is in flight. */
    public String confirmationsText() {
        if (state != CheckoutState.DETECTED || confirmations == null) {
            return null;
        }
        if (requiredConfirmations != null) {
            return confirmations + " of " + requiredConfirmations + " confirmations";
        }
        return confirmations == 1 ? "1 confirmation" : confirmations + " confirmations";
    }

    /** An amount without exponent or trailing zeros: 2.50 → "2.5", 1E+1 → "10". */
    static String plain(BigDecimal amount) {
        return amount.signum() == 0 ? "0" : amount.stripTrailingZeros().toPlainString();
    }
}
