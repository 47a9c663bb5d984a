package dev.cryptopay.client;

import dev.cryptopay.auth.keys.SigningKey;
import dev.cryptopay.client.account.AccountApi;
import dev.cryptopay.client.account.SignupApi;
import dev.cryptopay.client.invoker.ApiClient;
import dev.cryptopay.client.notifications.NotificationsApi;
import dev.cryptopay.client.paymentlinks.CheckoutApi;
import dev.cryptopay.client.paymentlinks.PaymentLinksApi;
import dev.cryptopay.client.subscriptions.PlansApi;
import dev.cryptopay.client.subscriptions.PublicApi;
import dev.cryptopay.client.subscriptions.SubscribersApi;
import dev.cryptopay.client.subscriptions.SubscriptionLinksApi;
import dev.cryptopay.client.webhooks.WebhookDeliveriesApi;
import dev.cryptopay.client.webhooks.WebhookEndpointsApi;
import java.net.URI;
import java.net.http.HttpClient;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;

/**
 * The merchant API from Java: one object per group of operations, each operation typed from the API description.
 *
 * <pre>{@code
 * CryptoPayClient client = CryptoPayClient.builder()
 *         .baseUrl("https://sandbox.cryptopay.dev/api/v1")
 *         .apiKey(System.getenv("CRYPTOPAY_API_KEY"))
 *         .privateKey(System.getenv("CRYPTOPAY_PRIVATE_KEY"))   // PEM, or Ed25519:<Base64 of PKCS#8>
 *         .build();
 * PaymentLink link = client.paymentLinks()
 *         .createPaymentLink(new CreatePaymentLink().paymentName("Order 42").amount(new BigDecimal("25.00"))
 *                 .currency("USDC"), null)
 *         .getData();
 * }</pre>
 *
 * <p>Every merchant request is signed (Ed25519, or RSA-PSS for legacy RSA keys) over its exact bytes with a fresh
 * timestamp. Creates get an {@code Idempotency-Key} when none is given, kept across retries, so a retried create
 * never makes two objects. Rate-limited answers are sent again after their {@code Retry-After}; see
 * {@link RetryPolicy}. Every error answer is thrown as {@link CryptoPayException}. A client is thread-safe; make one
 * and share it.
 */
public final class CryptoPayClient {

    private final PaymentLinksApi paymentLinks;
    private final CheckoutApi checkout;
    private final PlansApi plans;
    private final SubscribersApi subscribers;
    private final SubscriptionLinksApi subscriptionLinks;
    private final PublicApi publicRoutes;
    private final WebhookEndpointsApi webhookEndpoints;
    private final WebhookDeliveriesApi webhookDeliveries;
    private final AccountApi account;
    private final SignupApi signup;
    private final NotificationsApi notifications;

    private CryptoPayClient(Builder builder) {
        URI base = URI.create(stripSlash(Objects.requireNonNull(builder.baseUrl, "baseUrl is required")));
        String checkoutBase = builder.checkoutUrl != null ? stripSlash(builder.checkoutUrl) : rootOf(base);
        HttpClient http = builder.httpClient != null
                ? builder.httpClient
                : HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
        Transport.Credentials credentials = null;
        if (builder.apiKey != null || builder.privateKey != null) {
            if (builder.apiKey == null || builder.privateKey == null) {
                throw new IllegalArgumentException("apiKey and privateKey are given together");
            }
            credentials = new Transport.Credentials(builder.apiKey, SigningKey.parse(builder.privateKey));
        }
        Transport signed =
                new Transport(http, credentials, base.getRawPath(), builder.retry, builder.clock, builder.sleeper);
        Transport unsigned =
                new Transport(http, null, base.getRawPath(), builder.retry, builder.clock, builder.sleeper);
        ErrorResponses errors = new ErrorResponses();
        ApiClient signedClient = invoker(signed, base.toString(), builder.timeout, errors);
        ApiClient publicClient = invoker(unsigned, base.toString(), builder.timeout, errors);

        this.paymentLinks = new PaymentLinksApi(signedClient);
        this.checkout = new CheckoutApi(invoker(unsigned, checkoutBase, builder.timeout, errors));
        this.plans = new PlansApi(signedClient);
        this.subscribers = new SubscribersApi(signedClient);
        this.subscriptionLinks = new SubscriptionLinksApi(signedClient);
        this.publicRoutes = new PublicApi(publicClient);
        this.webhookEndpoints = new WebhookEndpointsApi(signedClient);
        this.webhookDeliveries = new WebhookDeliveriesApi(signedClient);
        this.account = new AccountApi(signedClient);
        this.signup = new SignupApi(publicClient);
        this.notifications = new NotificationsApi(signedClient);
    }

    /**
     * The generated invoker, set up to send through {@code transport} at {@code base}, with a timeout per attempt and
     * every error answer thrown as {@link CryptoPayException}. Subclassed only to hand out the transport: the
     * generator's invoker otherwise builds its own JDK client.
     */
    private static ApiClient invoker(HttpClient transport, String base, Duration timeout, ErrorResponses errors) {
        ApiClient client = new ApiClient() {
            @Override
            public HttpClient getHttpClient() {
                return transport;
            }
        };
        client.updateBaseUri(base);
        client.setReadTimeout(timeout);
        client.setResponseInterceptor(errors);
        return client;
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Payment links, currencies and the receiving key (signed). */
    public PaymentLinksApi paymentLinks() {
        return paymentLinks;
    }

    /** The customer's checkout status of a payment link (public, at the gateway's root). */
    public CheckoutApi checkout() {
        return checkout;
    }

    /** Subscription plans and their EIP-712 terms (signed). */
    public PlansApi plans() {
        return plans;
    }

    /** Subscribers and invitations (signed). */
    public SubscribersApi subscribers() {
        return subscribers;
    }

    /** Subscription links, the merchant's side (signed). */
    public SubscriptionLinksApi subscriptionLinks() {
        return subscriptionLinks;
    }

    /** The public subscription routes a customer's wallet or the merchant's page calls (not signed). */
    public PublicApi publicRoutes() {
        return publicRoutes;
    }

    /** Webhook endpoints and their secrets (signed). */
    public WebhookEndpointsApi webhookEndpoints() {
        return webhookEndpoints;
    }

    /** Deliveries of webhook events, their retry and recovery (signed). */
    public WebhookDeliveriesApi webhookDeliveries() {
        return webhookDeliveries;
    }

    /**
     * The calling API key's account, mode and rate limits; the merchant's keys (list, create, revoke) and its request
     * for production access (signed).
     */
    public AccountApi account() {
        return account;
    }

    /** The e-mails written to the merchant's customers: the settings (name, support address, which ones) and the log. */
    public NotificationsApi notifications() {
        return notifications;
    }

    /**
     * Self-service sign-up, when the gateway offers it (not signed): a new test-mode merchant whose API key is bound
     * to the public key sent. Build a client with the returned API key and the matching private key afterwards.
     */
    public SignupApi signup() {
        return signup;
    }

    private static String stripSlash(String url) {
        return url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
    }

    /** The gateway's root: the base URL without its trailing {@code /api/v1}. */
    private static String rootOf(URI base) {
        String text = base.toString();
        return text.endsWith("/api/v1") ? text.substring(0, text.length() - "/api/v1".length()) : text;
    }

    /** Settings of a {@link CryptoPayClient}. */
    public static final class Builder {
        private String baseUrl;
        private String checkoutUrl;
        private String apiKey;
        private String privateKey;
        private RetryPolicy retry = RetryPolicy.DEFAULT;
        private Duration timeout = Duration.ofSeconds(30);
        private HttpClient httpClient;
        private Clock clock = Clock.systemUTC();
        private Transport.Sleeper sleeper = Transport.SLEEP;

        private Builder() {}

        /** The API's base address, ending in {@code /api/v1}. Required. */
        public Builder baseUrl(String baseUrl) {
            this.baseUrl = baseUrl;
            return this;
        }

        /** Where the checkout routes are; by default the base address without {@code /api/v1}. */
        public Builder checkoutUrl(String checkoutUrl) {
            this.checkoutUrl = checkoutUrl;
            return this;
        }

        /** The API key ({@code mk_test_…} or {@code mk_live_…}); with {@link #privateKey}, for signed routes. */
        public Builder apiKey(String apiKey) {
            this.apiKey = apiKey;
            return this;
        }

        /**
         * The API key's private key: PKCS#8 PEM (Ed25519 or RSA), or {@code Ed25519:} followed by the Base64 of the
         * PKCS#8 DER. Refused at {@link #build} when it is neither.
         */
        public Builder privateKey(String privateKey) {
            this.privateKey = privateKey;
            return this;
        }

        /** When to send again; {@link RetryPolicy#DEFAULT} unless set. */
        public Builder retryPolicy(RetryPolicy retry) {
            this.retry = Objects.requireNonNull(retry, "retry");
            return this;
        }

        /** How long one attempt may wait for its answer; 30 s unless set. */
        public Builder timeout(Duration timeout) {
            this.timeout = Objects.requireNonNull(timeout, "timeout");
            return this;
        }

        /** The JDK client to send with (proxy, TLS, executor); a new one unless set. */
        public Builder httpClient(HttpClient httpClient) {
            this.httpClient = httpClient;
            return this;
        }

        /** The clock signatures are timed by; the system's unless set. */
        public Builder clock(Clock clock) {
            this.clock = Objects.requireNonNull(clock, "clock");
            return this;
        }

        /** How waits between attempts are made; tests record them instead of sleeping. */
        Builder sleeper(Transport.Sleeper sleeper) {
            this.sleeper = Objects.requireNonNull(sleeper, "sleeper");
            return this;
        }

        public CryptoPayClient build() {
            return new CryptoPayClient(this);
        }
    }
}
