package dev.cryptopay.subscriptions.config;

import dev.cryptopay.auth.Mode;
import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Positive;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/** Settings of the subscriptions service. */
@Validated
@ConfigurationProperties("subscriptions")
public record SubscriptionsProperties(
        /** Customer-facing checkout address; subscription_link_url is {checkout-url}/subscribe?subscriber_id={id}. */
        @NotBlank String checkoutUrl,
        /** The API's public base address through the gateway (ends in /api/v1); NFT metadata links point there. */
        @NotBlank @DefaultValue("https://sandbox.cryptopay.dev/api/v1")
        String publicUrl,
        /** Kafka topic the outbox relay publishes subscription events to. */
        @NotBlank @DefaultValue("subscriptions.events") String topic,
        /** The chain id of the network a plan is on when its request names no network_id, per mode. */
        @NotNull DefaultChain defaultChain,
        /** The subscription contract (the EIP-712 verifyingContract) per chain id; blank means none there. */
        @NotNull @DefaultValue Map<Long, String> contracts,
        /**
         * A JSON-RPC endpoint per chain id, read by the enrolment kit for the wallet's current allowance (blank means
         * none: the kit then cannot add to it, and says so with {@code current_allowance} null).
         */
        @NotNull @DefaultValue Map<Long, String> rpcUrls,
        /** The billing scheduler. */
        @NotNull @DefaultValue Billing billing,
        /** The customer's subscribe page ({checkout-url}/subscribe) and its live status. */
        @NotNull @Valid @DefaultValue Checkout checkout) {

    /**
     * The subscribe page ({@code GET /checkout/subscribe}) and its event stream ({@code GET
     * /checkout/subscribe/events}). Each open stream reads the subscriber from the database on its own, so any number
     * of instances serve streams without a shared bus.
     *
     * @param pollInterval how often an open stream reads the subscriber's state
     * @param heartbeatInterval how often a stream sends a comment line, so proxies keep a quiet stream open
     * @param idleTimeout how long a stream stays open without a change before the server ends it (the browser
     *     reconnects and gets the current status first)
     * @param streamLifetime how long a stream stays open at most before the server ends it (the browser reconnects)
     * @param maxStreams streams one instance keeps open at most; beyond it a new one is answered 503
     * @param approvalPeriods how many periods the page's wallet enrolment approves (prepare's {@code periods})
     * @param explorers block explorers by chain id (an http(s) base; a transaction is {@code <base>/tx/<hash>}) over
     *     checkout-ui's built-in ones for the main networks; a blank value removes one. The page links payments there
     */
    public record Checkout(
            @NotNull @DefaultValue("2s") Duration pollInterval,
            @NotNull @DefaultValue("15s") Duration heartbeatInterval,
            @NotNull @DefaultValue("2m") Duration idleTimeout,
            @NotNull @DefaultValue("10m") Duration streamLifetime,
            @Positive @DefaultValue("500") int maxStreams,
            @Positive @Max(120) @DefaultValue("12") int approvalPeriods,
            @NotNull @DefaultValue Map<Long, String> explorers) {}

    /**
     * The billing scheduler's settings.
     *
     * @param enabled whether this instance runs it (safe on several instances at once)
     * @param interval the pause between passes
     * @param expiringNotice how long before a link's expires_at {@code subscription.expiring} is written
     * @param enrolmentWait how long an enrolment waits for a confirmed {@code Subscribed} log before it is marked
     *     failed
     * @param batch links claimed per transaction
     */
    public record Billing(
            @DefaultValue("true") boolean enabled,
            @DefaultValue("30s") Duration interval,
            @DefaultValue("3d") Duration expiringNotice,
            @DefaultValue("1h") Duration enrolmentWait,
            @DefaultValue("100") int batch) {}

    /** Chain ids by mode. */
    public record DefaultChain(long test, long live) {

        public long of(Mode mode) {
            return mode == Mode.LIVE ? live : test;
        }
    }

    /** The subscription contract configured for a chain, if any. */
    public Optional<String> contract(long chainId) {
        String address = contracts.get(chainId);
        return address == null || address.isBlank() ? Optional.empty() : Optional.of(address.strip());
    }

    /** The JSON-RPC endpoint configured for a chain, if any. */
    public Optional<String> rpcUrl(long chainId) {
        String url = rpcUrls.get(chainId);
        return url == null || url.isBlank() ? Optional.empty() : Optional.of(url.strip());
    }

    /** An address under the API's public base: {public-url}{path}. */
    public String publicUrl(String path) {
        String base = publicUrl.endsWith("/") ? publicUrl.substring(0, publicUrl.length() - 1) : publicUrl;
        return base + path;
    }

    /** The link a subscriber follows to enrol. */
    public String subscriptionLinkUrl(UUID subscriberId) {
        String base = checkoutUrl.endsWith("/") ? checkoutUrl.substring(0, checkoutUrl.length() - 1) : checkoutUrl;
        return base + "/subscribe?subscriber_id=" + subscriberId;
    }
}
