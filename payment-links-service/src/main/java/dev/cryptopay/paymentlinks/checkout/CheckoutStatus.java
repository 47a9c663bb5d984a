package dev.cryptopay.paymentlinks.checkout;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.time.Instant;

/**
 * The customer-safe status of a checkout, as {@code GET /checkout/payment_link/status} answers it and as each event of
 * the event stream carries it. Two statuses are equal exactly when the page would show the same state, so a stream
 * sends one only when something visible changed.
 *
 * @param terminal              whether the state can no longer change through the customer (live updates may stop)
 * @param confirmations         confirmations of the payment in flight (state {@code detected} only)
 * @param requiredConfirmations how many it needs, when the chain watcher said
 * @param amountDue             what to send now, a decimal string (the remainder when underpaid)
 * @param unexpectedAssetNotice what arrived in other assets than the link's, which paid nothing ("We received 5 USDT,
 *                              but this link takes USDC. …"); absent when nothing did
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record CheckoutStatus(
        String state,
        String title,
        String detail,
        boolean terminal,
        Integer confirmations,
        Integer requiredConfirmations,
        String amountDue,
        String currency,
        Instant expiresAt,
        String unexpectedAssetNotice) {

    static CheckoutStatus of(CheckoutView view) {
        boolean detected = view.state() == CheckoutState.DETECTED;
        return new CheckoutStatus(
                view.state().wireName(),
                view.state().title(),
                view.detail(),
                view.state().terminal(),
                detected ? view.confirmations() : null,
                detected ? view.requiredConfirmations() : null,
                CheckoutView.plain(view.amountDue()),
                view.currency(),
                view.expiresAt(),
                view.unexpectedAssetNotice());
    }
}
