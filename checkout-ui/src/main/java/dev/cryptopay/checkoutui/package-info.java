/**
 * What the customers' pages share, so the payment checkout (payment-links-service) and the subscribe page
 * (subscriptions-service) look and behave alike from one copy: versioned static assets ({@link StaticAsset}, the
 * stylesheet and scripts under {@code checkout-ui/} in this jar), the page's document ({@link PageShell}), the security
 * headers ({@link CheckoutHeaders}), HTML escaping and link checks ({@link Html}), live status as Server-Sent Events
 * ({@link LiveStream}, {@link LiveStreams}) and block-explorer links ({@link Explorers}). No Spring beans are declared
 * here: each service makes the few it needs.
 */
package dev.cryptopay.checkoutui;
