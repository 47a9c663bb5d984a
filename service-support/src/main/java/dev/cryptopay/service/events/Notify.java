package dev.cryptopay.service.events;

import com.fasterxml.jackson.annotation.JsonInclude;
import tools.jackson.databind.PropertyNamingStrategies;
import tools.jackson.databind.annotation.JsonNaming;

/**
 * What notification-service needs to e-mail the customer an event concerns, beside the event's {@code data}: the
 * envelope's {@code notify} member. Only the producer knows these at the moment of the event (the address the
 * merchant gave, the name the gateway forwarded, the plan's terms in token units), and they are not the merchant's
 * webhook payload, so they travel here instead of in {@code data}. Null members are left out.
 *
 * @param customerEmail where the customer's e-mail goes (never null: an event without an address has no notify)
 * @param customerName the customer's name as the merchant gave it, or null
 * @param merchantName the merchant's display name as the gateway forwarded it, or null
 * @param subscriptionLinkUrl the customer's subscribe page (subscription events), or null
 * @param planName the plan's name (subscription events), or null
 * @param amount the event's amount in token units, plain notation ({@code "10.5"}): what a payment collected, or what
 *     one period bills (subscription events; data's {@code amount} is in base units), or null
 * @param intervalSeconds the plan's billing interval (subscription events), or null
 * @param network the plan's network name (subscription events), or null
 * @param cancelAfterMissed how many payments missed in a row cancel the subscription, 0 for never (subscription
 *     events), or null
 * @param nextPayment the next pull while the subscription is active and its contract known, or null
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Notify(
        String customerEmail,
        String customerName,
        String merchantName,
        String subscriptionLinkUrl,
        String planName,
        String amount,
        Long intervalSeconds,
        String network,
        Long cancelAfterMissed,
        NextPayment nextPayment) {

    /** A notify member for the customer's address, or null when there is no address to write to. */
    public static Notify customer(String customerEmail, String customerName, String merchantName) {
        if (customerEmail == null || customerEmail.isBlank()) {
            return null;
        }
        return new Notify(customerEmail, customerName, merchantName, null, null, null, null, null, null, null);
    }

    /** This member with the subscription's page and the plan's terms. */
    public Notify withSubscription(
            String url, String plan, String tokenAmount, long interval, String networkName, long cancelAfter) {
        return new Notify(
                customerEmail,
                customerName,
                merchantName,
                url,
                plan,
                tokenAmount,
                interval,
                networkName,
                cancelAfter,
                null);
    }

    /** This member with the subscription's next pull (null: none to announce). */
    public Notify withNextPayment(NextPayment next) {
        return new Notify(
                customerEmail,
                customerName,
                merchantName,
                subscriptionLinkUrl,
                planName,
                amount,
                intervalSeconds,
                network,
                cancelAfterMissed,
                next);
    }
}
