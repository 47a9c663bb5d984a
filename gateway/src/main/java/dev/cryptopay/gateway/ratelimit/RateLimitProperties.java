package dev.cryptopay.gateway.ratelimit;

import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Positive;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.validation.annotation.Validated;

/**
 * Request budgets per route group. Each bucket holds {@code limit} requests and is refilled to full once per
 * {@code period} (a fixed window that starts with the bucket's first request).
 *
 * @param enabled whether limits are enforced at all. Default true.
 * @param period  the window every limit refers to. Default 1 minute.
 * @param limits  requests allowed per window, per group.
 */
@Validated
@ConfigurationProperties("gateway.rate-limit")
public record RateLimitProperties(
        Boolean enabled,
        @NotNull Duration period,
        @NotNull @Valid Limits limits) {

    public RateLimitProperties {
        enabled = enabled == null ? Boolean.TRUE : enabled;
        period = period == null ? Duration.ofMinutes(1) : period;
        limits = limits == null
                ? new Limits(null, null, null, null, null, null, null, null, null, null, null, null, null, null)
                : limits;
        if (period.isNegative() || period.isZero()) {
            throw new IllegalArgumentException("gateway.rate-limit.period must be positive");
        }
    }

    /** The configured limit of a group. */
    public int limitOf(RouteGroup group) {
        return switch (group) {
            case PAYMENT_LINKS_WRITE -> limits.paymentLinksWrite();
            case PAYMENT_LINKS_READ -> limits.paymentLinksRead();
            case PAYMENT_LINKS_CURRENCIES -> limits.paymentLinksCurrencies();
            case RECEIVING_KEY -> limits.receivingKey();
            case SUBSCRIPTIONS_READ -> limits.subscriptionsRead();
            case SUBSCRIPTIONS_WRITE -> limits.subscriptionsWrite();
            case PUBLIC_LINK_PAYMENT -> limits.publicLinkPayment();
            case PUBLIC_LINK_PAYMENT_PER_KEY -> limits.publicLinkPaymentPerKey();
            case PUBLIC -> limits.publicPerIp();
            case WEBHOOKS -> limits.webhooks();
            case ACCOUNT -> limits.account();
            case SIGNUP -> limits.signup();
            case CHECKOUT -> limits.checkout();
            case PRE_AUTH -> limits.preAuth();
        };
    }

    /**
     * Requests per window and group.
     *
     * @param paymentLinksWrite      POST /payment_links and DELETE /payment_links/{id}, per API key. Default 10.
     * @param paymentLinksRead       GET /payment_links and GET /payment_links/{id}, per API key. Default 30.
     * @param paymentLinksCurrencies GET /payment_links/currencies, per API key. Default 60.
     * @param receivingKey           GET and PUT /payment_links/receiving_key, per API key. Default 10.
     * @param subscriptionsRead      GET on /subscriptions/**, /subscriber/**, /invitations/**, per API key. Default 60.
     * @param subscriptionsWrite     POST/PUT/PATCH/DELETE on the same paths, per API key. Default 30.
     * @param publicLinkPayment      POST /public/subscriptions/link/payment, per merchant_key and client address
     *                               (IPv6: per /64). Default 10.
     * @param publicLinkPaymentPerKey the same calls per merchant_key over all client addresses together: a ceiling
     *                               that keeps many addresses from flooding the service with one key. Default 300.
     * @param publicPerIp            every other /public/** call, per client IP. Default 120.
     * @param webhooks               /webhook-endpoints/**, /webhook-deliveries/** and /events/**, per API key. Default 30.
     * @param account                GET /account, the merchant's keys and production access, per API key. Default 60.
     * @param signup                 POST /signup (self-service sign-up), per client IP. Default 10.
     * @param checkout               /checkout/** (page, status, events, assets), per client IP. Default 300.
     * @param preAuth                every signed or merchant_key request, per client IP, before authentication.
     *                               Default 1200.
     */
    public record Limits(
            @Positive Integer paymentLinksWrite,
            @Positive Integer paymentLinksRead,
            @Positive Integer paymentLinksCurrencies,
            @Positive Integer receivingKey,
            @Positive Integer subscriptionsRead,
            @Positive Integer subscriptionsWrite,
            @Positive Integer publicLinkPayment,
            @Positive Integer publicLinkPaymentPerKey,
            @Positive Integer publicPerIp,
            @Positive Integer webhooks,
            @Positive Integer account,
            @Positive Integer signup,
            @Positive Integer checkout,
            @Positive Integer preAuth) {

        public Limits {
            paymentLinksWrite = paymentLinksWrite == null ? 10 : paymentLinksWrite;
            paymentLinksRead = paymentLinksRead == null ? 30 : paymentLinksRead;
            paymentLinksCurrencies = paymentLinksCurrencies == null ? 60 : paymentLinksCurrencies;
            receivingKey = receivingKey == null ? 10 : receivingKey;
            subscriptionsRead = subscriptionsRead == null ? 60 : subscriptionsRead;
            subscriptionsWrite = subscriptionsWrite == null ? 30 : subscriptionsWrite;
            publicLinkPayment = publicLinkPayment == null ? 10 : publicLinkPayment;
            publicLinkPaymentPerKey = publicLinkPaymentPerKey == null ? 300 : publicLinkPaymentPerKey;
            publicPerIp = publicPerIp == null ? 120 : publicPerIp;
            webhooks = webhooks == null ? 30 : webhooks;
            account = account == null ? 60 : account;
            signup = signup == null ? 10 : signup;
            checkout = checkout == null ? 300 : checkout;
            preAuth = preAuth == null ? 1200 : preAuth;
        }
    }
}
