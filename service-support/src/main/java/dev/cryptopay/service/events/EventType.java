package dev.cryptopay.service.events;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * Every event type a merchant can receive: producers emit them, webhook-service lets endpoints subscribe to them.
 * One catalogue, so a name cannot drift between the service that emits it and the one that delivers it.
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
    ACCOUNT_RECEIVING_KEY_UPDATED("account.receiving_key.updated");

    private static final List<String> WIRE_NAMES =
            Arrays.stream(values()).map(EventType::wireName).toList();

    private final String wireName;

    EventType(String wireName) {
        this.wireName = wireName;
    }

    /** The name on the wire: {@code payment.completed}. */
    public String wireName() {
        return wireName;
    }

    /** Every wire name, in catalogue order. */
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
