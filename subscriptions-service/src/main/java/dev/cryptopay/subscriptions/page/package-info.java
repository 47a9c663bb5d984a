/**
 * The customer's subscribe page, where {@code subscription_link_url} leads ({@code GET /checkout/subscribe}, public
 * through the gateway): the plan's terms in words before enrolment, enrolment from a browser wallet (or by hand with
 * any wallet), then the subscription itself — next payment, paid periods, owed amount, cancelling from the wallet — on
 * the same address. Rendered on the server (works without JavaScript), with its status as JSON and as Server-Sent
 * Events, the wallet's kit and the enrolment. Looks, wallet code, security headers and escaping come from the
 * {@code checkout-ui} library the payment checkout uses too. Only customer-safe fields are shown: never the
 * merchant's account id, customer id or webhook metadata.
 */
package dev.cryptopay.subscriptions.page;
