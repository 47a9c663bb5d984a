package dev.cryptopay.gateway.ratelimit;

import java.util.Locale;

/**
 * The buckets requests are counted in. A merchant has one bucket per group and API key; public routes (and the
 * checkout) are counted per client IP, except the subscription payment call, which is counted per
 * {@code merchant_key} and client address, under a larger ceiling per {@code merchant_key}.
 */
public enum RouteGroup {
    /** POST /payment_links, DELETE /payment_links/{id} (and any other non-GET call there). */
    PAYMENT_LINKS_WRITE(Scope.API_KEY),
    /** GET /payment_links, GET /payment_links/{id}. */
    PAYMENT_LINKS_READ(Scope.API_KEY),
    /** GET /payment_links/currencies. */
    PAYMENT_LINKS_CURRENCIES(Scope.API_KEY),
    /** GET and PUT /payment_links/receiving_key. */
    RECEIVING_KEY(Scope.API_KEY),
    /** GET on /subscriptions/**, /subscriber/**, /invitations/**. */
    SUBSCRIPTIONS_READ(Scope.API_KEY),
    /** POST/PUT/PATCH/DELETE on /subscriptions/**, /subscriber/**, /invitations/**. */
    SUBSCRIPTIONS_WRITE(Scope.API_KEY),
    /**
     * POST /public/subscriptions/link/payment, counted per merchant_key and client address (IPv6: /64), so one
     * customer cannot use up the budget of the merchant's other customers; also counted in {@link #keyCeiling()}.
     */
    PUBLIC_LINK_PAYMENT(Scope.API_KEY_AND_CLIENT_IP),
    /** The same calls counted per merchant_key alone: a ceiling for all of a key's clients together. */
    PUBLIC_LINK_PAYMENT_PER_KEY(Scope.API_KEY),
    /** Every other /public/** call, counted per client IP. */
    PUBLIC(Scope.CLIENT_IP),
    /** /webhook-endpoints/**, /webhook-deliveries/**, /events/**. */
    WEBHOOKS(Scope.API_KEY),
    /**
     * GET /account, /account/keys (GET, POST, DELETE …/{id}), /account/production_access (GET, POST) and the e-mail
     * settings and log (/notifications/**).
     */
    ACCOUNT(Scope.API_KEY),
    /** POST /signup (self-service sign-up, when enabled), counted per client IP. */
    SIGNUP(Scope.CLIENT_IP),
    /**
     * /checkout/** (the customer's checkout page and the subscribe page /checkout/subscribe/**, their status, events
     * and assets), counted per client IP.
     */
    CHECKOUT(Scope.CLIENT_IP),
    /** Every signed or merchant_key request, counted per client IP before authentication (see PreAuthLimitFilter). */
    PRE_AUTH(Scope.CLIENT_IP);

    /** What a bucket of the group is keyed by. */
    public enum Scope {
        API_KEY,
        CLIENT_IP,
        /** The key and the client's address bucket together. */
        API_KEY_AND_CLIENT_IP
    }

    private final Scope scope;

    RouteGroup(Scope scope) {
        this.scope = scope;
    }

    public Scope scope() {
        return scope;
    }

    /** The per-key group a request of this group is also counted in once admitted, or null. */
    public RouteGroup keyCeiling() {
        return this == PUBLIC_LINK_PAYMENT ? PUBLIC_LINK_PAYMENT_PER_KEY : null;
    }

    /** The snake_case name used in metrics tags, problem messages and {@code GET /account}. */
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }
}
