package dev.cryptopay.service.events;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * Every event type a merchant can receive: producers emit them, webhook-service lets endpoints subscribe to them.
 * One catalogue, so a name cannot drift between the service that emits it and the one that delivers it. A few types
 * are internal ({@link #forMerchants()} false): they travel on the same topics for the suite's own consumers.
 */
public enum EventType {
    PAYMENT_CREATED("payment.created"),
    PAYMENT_PENDING("payment.pending"),
    PAYMENT_COMPLETED("payment.completed"),
    PAYMENT_FAILED("payment.failed"),
    PAYMENT_REFUNDED("payment.refunded"),
    TRANSFER_INITIATED("transfer.initiated"),
    TRANSFER_COMPLETED("transfer.completed"),
    TRANSFER_FAILED("transfer.failed"),
    WALLET_DEPOSIT("wallet.deposit"),
    WALLET_WITHDRAWAL("wallet.withdrawal"),
    SUBSCRIPTION_CREATED("subscription.created"),
    SUBSCRIPTION_ACTIVATED("subscription.activated"),
    SUBSCRIPTION_PAUSED("subscription.paused"),
    SUBSCRIPTION_CANCELLED("subscription.cancelled"),
    SUBSCRIPTION_PAYMENT_SUCCESS("subscription.payment.success"),
    SUBSCRIPTION_PAYMENT_FAILED("subscription.payment.failed"),
    SUBSCRIPTION_EXPIRING("subscription.expiring"),
    /** An API key or publishable key of the merchant was revoked (by the merchant or the operator). */
    ACCOUNT_KEY_REVOKED("account.key.revoked"),
    /** The receiving key, which decides where every new payment link's money goes, was registered or replaced. */
    ACCOUNT_RECEIVING_KEY_UPDATED("account.receiving_key.updated"),
    /**
     * A merchant invited a customer to a plan (a subscriber was created {@code invitation_sent}): internal, for
     * notification-service's invitation e-mail. Merchants cannot subscribe to it and webhook-service does not keep it;
     * the create call's answer already tells the merchant.
     */
    SUBSCRIBER_INVITED("subscriber.invited", false);

    private static final List<String> WIRE_NAMES = Arrays.stream(values())
            .filter(EventType::forMerchants)
            .map(EventType::wireName)
            .toList();

    private final String wireName;
    private final boolean forMerchants;

    EventType(String wireName) {
        this(wireName, true);
    }

    EventType(String wireName, boolean forMerchants) {
        this.wireName = wireName;
        this.forMerchants = forMerchants;
    }

    /** Whether merchants receive this type (webhooks, the event history); false for the suite's internal types. */
    public boolean forMerchants() {
        return forMerchants;
    }

    /**
     * Whether a wire name is one of the suite's internal types; false for merchant types and for names this catalogue
     * does not know (a newer producer's type is kept, not dropped).
     */
    public static boolean isInternal(String wireName) {
        return fromWireName(wireName).map(type -> !type.forMerchants).orElse(false);
    }

    /** The name on the wire: {@code payment.completed}. */
    public String wireName() {
        return wireName;
    }

    /** Every wire name merchants can subscribe to, in catalogue order (internal types are left out). */
    public static List<String> wireNames() {
        return WIRE_NAMES;
    }

    public static Optional<EventType> fromWireName(String name) {
        return Arrays.stream(values())
                .filter(type -> type.wireName.equals(name))
                .findFirst();
    }

    @Override
    public String toString() {
        return wireName;
    }
}
