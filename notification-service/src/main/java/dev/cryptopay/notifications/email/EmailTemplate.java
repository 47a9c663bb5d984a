package dev.cryptopay.notifications.email;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * Every e-mail the service writes, by the name its templates, its log and the merchant's settings use
 * ({@code templates/email/<name>.html} and {@code .txt}).
 */
public enum EmailTemplate {
    /** A merchant invited the customer to a plan ({@code subscriber.invited}). */
    SUBSCRIPTION_INVITATION("subscription_invitation"),
    /** The customer's subscription became active ({@code subscription.activated}). */
    SUBSCRIPTION_ACTIVE("subscription_active"),
    /**
     * The reminder before a subscription's next pull ({@code notify.next_payment} of its latest event), worded from the
     * wallet's balance and allowance on chain at the reminder's moment.
     */
    SUBSCRIPTION_REMINDER("subscription_reminder"),
    /** A period was collected ({@code subscription.payment.success}). */
    SUBSCRIPTION_RECEIPT("subscription_receipt"),
    /**
     * A payment could not be collected and its grace passed ({@code subscription.payment.failed}, reason
     * {@code missed}): what is owed, what to do, when the subscription ends.
     */
    SUBSCRIPTION_PAYMENT_MISSED("subscription_payment_missed"),
    /** The subscription was cancelled ({@code subscription.cancelled}). */
    SUBSCRIPTION_CANCELLED("subscription_cancelled"),
    /** A payment link was paid ({@code payment.completed}). */
    PAYMENT_RECEIPT("payment_receipt");

    private static final List<String> WIRE_NAMES =
            Arrays.stream(values()).map(EmailTemplate::wireName).toList();

    private final String wireName;

    EmailTemplate(String wireName) {
        this.wireName = wireName;
    }

    public String wireName() {
        return wireName;
    }

    /** Every name, in declaration order. */
    public static List<String> wireNames() {
        return WIRE_NAMES;
    }

    public static Optional<EmailTemplate> fromWireName(String name) {
        return Arrays.stream(values())
                .filter(template -> template.wireName.equals(name))
                .findFirst();
    }
}
