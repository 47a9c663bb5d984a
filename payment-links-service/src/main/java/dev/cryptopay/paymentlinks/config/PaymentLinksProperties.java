package dev.cryptopay.paymentlinks.config;

import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Positive;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/** Settings of the payment-links service. */
@Validated
@ConfigurationProperties("payment-links")
public record PaymentLinksProperties(
        /** Customer-facing checkout address; payment_url is {checkout-url}/payment_link?payment_id={id}. */
        @NotBlank String checkoutUrl,
        /** Kafka topic the outbox relay publishes payment events to. */
        @NotBlank @DefaultValue("payment-links.events") String topic,
        /** Lifetime of a link created without expires_at. */
        @NotNull @DefaultValue("24h") Duration defaultExpiry,
        /** How often the sweeper looks for pending links whose expires_at has passed. */
        @NotNull @DefaultValue("10s") Duration expirySweepInterval,
        /** Whether this instance runs the expiry sweeper (safe on several instances). */
        @DefaultValue("true") boolean expirySweepEnabled,
        /** Where test-mode links are paid (live-mode links use the currencies' own networks). */
        @NotNull @Valid TestNetwork testNetwork,
        /** The customer checkout page's live status stream. */
        @NotNull @Valid @DefaultValue Checkout checkout,
        /** Refunds the merchant's wallet pays from a deposit address. */
        @NotNull @Valid @DefaultValue Refunds refunds) {

    /**
     * How long a refund waits for its transfer: an {@code initiated} refund whose transfer is not seen on chain by
     * {@code now + abandonAfter} is failed as abandoned by the expiry sweeper, and its amount can be refunded again.
     * chain-watcher watches the deposit address's outgoing transfers until then.
     */
    public record Refunds(@NotNull @DefaultValue("72h") Duration abandonAfter) {}

    /**
     * How the checkout's event stream ({@code GET /checkout/payment_link/events}) behaves. Each open stream reads
     * the link from the database on its own, so any number of service instances serve streams without a shared bus.
     *
     * @param pollInterval      how often an open stream reads the link's state
     * @param heartbeatInterval how often a stream sends a comment line, so proxies keep a quiet stream open
     * @param idleTimeout       how long a stream stays open without a change before the server ends it (the browser
     *                          reconnects and gets the current status first)
     * @param streamLifetime    how long a stream stays open at most before the server ends it (the browser reconnects)
     * @param maxStreams        streams one instance keeps open at most; beyond it a new one is answered 503
     * @param explorers         block explorers by chain id (an http(s) base; a transaction is {@code <base>/tx/<hash>})
     *                          over checkout-ui's built-in ones for the main networks; a blank value removes one. A
     *                          paid checkout links its transaction there; chains without one (the dev chain) show the
     *                          hash only
     */
    public record Checkout(
            @NotNull @DefaultValue("2s") Duration pollInterval,
            @NotNull @DefaultValue("15s") Duration heartbeatInterval,
            @NotNull @DefaultValue("2m") Duration idleTimeout,
            @NotNull @DefaultValue("10m") Duration streamLifetime,
            @Positive @DefaultValue("500") int maxStreams,
            @NotNull @DefaultValue Map<Long, String> explorers) {}

    /**
     * The network test-mode links are paid on: the local dev chain by default, a public test network in a hosted
     * sandbox.
     *
     * @param tokens currency code → how it is paid there; a currency missing here cannot be paid in test mode
     */
    public record TestNetwork(
            @NotBlank String name,
            @Positive long chainId,
            @NotNull Map<String, @Valid TestToken> tokens) {}

    /**
     * @param contract the ERC-20 contract; empty for the network's native coin
     */
    public record TestToken(
            String contract, @Min(0) @Max(36) int decimals) {}

    /** The payment_url of a link. */
    public String paymentUrl(UUID linkId) {
        String base = checkoutUrl.endsWith("/") ? checkoutUrl.substring(0, checkoutUrl.length() - 1) : checkoutUrl;
        return base + "/payment_link?payment_id=" + linkId;
    }
}
