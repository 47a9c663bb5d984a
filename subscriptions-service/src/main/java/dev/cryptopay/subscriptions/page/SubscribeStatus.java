package dev.cryptopay.subscriptions.page;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.time.Instant;

/**
 * The customer-safe status of a subscribe page, as {@code GET /checkout/subscribe/status} answers it and as each event
 * of the event stream carries it. Two statuses are equal exactly when the page would show the same thing, so a
 * stream sends one only when something visible changed.
 *
 * @param terminal whether the state can no longer change through the customer (live updates may stop)
 * @param chainStatus the link's place on chain ({@code pending}, {@code subscribed}, {@code failed},
 *     {@code ended}); absent before
 *     enrolment
 * @param paidPeriods periods the contract collected
 * @param payments payments the page lists
 * @param owed what missed periods left owing, in token units
 * @param nextBillingAt when the next period is due; absent before enrolment
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record SubscribeStatus(
        String state,
        String title,
        String detail,
        boolean terminal,
        String chainStatus,
        int paidPeriods,
        int payments,
        String owed,
        String currency,
        Instant nextBillingAt) {

    static SubscribeStatus of(SubscribeView view) {
        return new SubscribeStatus(
                view.state().wireName(),
                view.state().title(),
                view.detail(),
                view.terminal(),
                view.link() == null ? null : view.link().chainStatus().wireName(),
                view.link() == null ? 0 : view.link().paidPeriods(),
                view.payments().size(),
                view.owedUnits(),
                view.token().currencyCode(),
                view.nextBillingAt());
    }
}
