package dev.cryptopay.notifications.email;

import dev.cryptopay.auth.Mode;
import dev.cryptopay.notifications.config.NotificationProperties;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.springframework.stereotype.Component;
import tools.jackson.databind.JsonNode;

/**
 * Which e-mails an event makes, to whom, and their words. Customers are written to only where the producer named an
 * address ({@code notify.customer_email}); every e-mail is in the merchant's name, and says "Test mode" when the event
 * is the sandbox's.
 *
 * <table>
 *   <caption>Customer e-mails</caption>
 *   <tr><th>event</th><th>template</th></tr>
 *   <tr><td>subscriber.invited</td><td>subscription_invitation: the plan's terms and the subscribe page</td></tr>
 *   <tr><td>subscription.activated</td><td>subscription_active</td></tr>
 *   <tr><td>subscription.payment.success</td><td>subscription_receipt: amount, network, transaction</td></tr>
 *   <tr><td>subscription.payment.failed (missed)</td><td>subscription_payment_missed: what is owed, what to do, when
 *   it is cancelled</td></tr>
 *   <tr><td>subscription.cancelled</td><td>subscription_cancelled</td></tr>
 *   <tr><td>payment.completed</td><td>payment_receipt: amount, network, transaction</td></tr>
 * </table>
 */
@Component
public class EmailCatalog {

    /** Due dates as customers read them, in UTC: "2 December 2026, 14:00 UTC". */
    private static final DateTimeFormatter DATE = DateTimeFormatter.ofPattern(
                    "d MMMM yyyy, HH:mm 'UTC'", Locale.ENGLISH)
            .withZone(ZoneOffset.UTC);

    private final EmailRenderer renderer;
    private final NotificationProperties properties;

    public EmailCatalog(EmailRenderer renderer, NotificationProperties properties) {
        this.renderer = renderer;
        this.properties = properties;
    }

    /**
     * The e-mails the event makes; none for an event that names no one or that no e-mail is about.
     *
     * @param merchantName the name e-mails show for the merchant (its settings', else the event's, else the one
     *     remembered), or null
     */
    public List<Email> emailsFor(Notice notice, String merchantName) {
        if (notice.notifyText("customer_email") == null) {
            return List.of();
        }
        return made(notice, senderName(merchantName));
    }

    /**
     * The reminder before the next pull of the notice's subscription ({@code notify.next_payment}), worded from the
     * check: the payment will be taken; or the balance, the allowance or both will not cover it (with what the chain
     * shows and the subscribe page to raise the allowance); or, where the chain was not read, what to make sure of.
     */
    public Email reminder(Notice notice, String merchantName, PaymentCheck check) {
        String merchant = senderName(merchantName);
        JsonNode next = notice.notifyTo().path("next_payment");
        String currency = notice.dataText("currency");
        String amount = next.path("amount").asString("") + (currency == null ? "" : " " + currency);
        String date = DATE.format(check.dueAt());
        Map<String, Object> variables = variables(notice, merchant);
        variables.put("amount", amount);
        variables.put("dueDate", date);
        variables.put("wallet", next.path("wallet").asString(""));
        variables.put("checked", check.checked());
        variables.put("covered", check.covered());
        variables.put("balance", withCurrency(check.balance(), currency));
        variables.put(
                "allowance",
                "unlimited".equals(check.allowance()) ? "unlimited" : withCurrency(check.allowance(), currency));
        variables.put("balanceShort", Boolean.FALSE.equals(check.balanceCovers()));
        variables.put("allowanceShort", Boolean.FALSE.equals(check.allowanceCovers()));
        variables.put("transaction", null);
        String subject = (check.checked() && !check.covered() ? "Action needed: " : "Upcoming payment: ") + amount
                + " for " + plan(notice) + " on " + date;
        return render(notice, merchant, EmailTemplate.SUBSCRIPTION_REMINDER, subject, variables);
    }

    private List<Email> made(Notice notice, String merchant) {
        return switch (notice.type()) {
            case "subscriber.invited" ->
                List.of(customerEmail(
                        notice,
                        merchant,
                        EmailTemplate.SUBSCRIPTION_INVITATION,
                        merchant + " invites you to subscribe: " + plan(notice)));
            case "subscription.activated" ->
                List.of(customerEmail(
                        notice,
                        merchant,
                        EmailTemplate.SUBSCRIPTION_ACTIVE,
                        "Your subscription to " + plan(notice) + " is active"));
            case "subscription.payment.success" ->
                List.of(customerEmail(
                        notice,
                        merchant,
                        EmailTemplate.SUBSCRIPTION_RECEIPT,
                        "Receipt from " + merchant + ": " + amount(notice) + " for " + plan(notice)));
            case "subscription.payment.failed" ->
                // A missed period; a collection a reorganisation took away is collected again by the keeper, unseen.
                "missed".equals(notice.dataText("reason"))
                        ? List.of(customerEmail(
                                notice,
                                merchant,
                                EmailTemplate.SUBSCRIPTION_PAYMENT_MISSED,
                                "Payment missed: " + amount(notice) + " for " + plan(notice)))
                        : List.of();
            case "subscription.cancelled" ->
                List.of(customerEmail(
                        notice,
                        merchant,
                        EmailTemplate.SUBSCRIPTION_CANCELLED,
                        "Your subscription to " + plan(notice) + " was cancelled"));
            case "payment.completed" ->
                List.of(customerEmail(
                        notice,
                        merchant,
                        EmailTemplate.PAYMENT_RECEIPT,
                        "Receipt from " + merchant + ": " + amount(notice)));
            default -> List.of();
        };
    }

    private Email customerEmail(Notice notice, String merchant, EmailTemplate template, String subject) {
        return render(notice, merchant, template, subject, variables(notice, merchant));
    }

    private Email render(
            Notice notice, String merchant, EmailTemplate template, String subject, Map<String, Object> variables) {
        String recipient = notice.notifyText("customer_email");
        return new Email(
                template.wireName(),
                recipient,
                merchant + " via " + properties.platformName(),
                null,
                (notice.mode() == Mode.TEST ? "[Test mode] " : "") + oneLine(subject),
                renderer.html(template.wireName(), variables),
                renderer.text(template.wireName(), variables));
    }

    /** What every template may show; absent facts are null (templates leave their lines out). */
    private Map<String, Object> variables(Notice notice, String merchant) {
        Map<String, Object> variables = new HashMap<>();
        variables.put("testMode", notice.mode() == Mode.TEST);
        variables.put("platform", properties.platformName());
        variables.put("merchant", merchant);
        variables.put("customerName", notice.notifyText("customer_name"));
        variables.put("plan", notice.notifyText("plan_name"));
        variables.put("amount", amount(notice));
        variables.put(
                "interval",
                Words.interval(notice.notifyTo().path("interval_seconds").asLong(0)));
        variables.put("network", network(notice));
        variables.put("subscribeUrl", notice.notifyText("subscription_link_url"));
        variables.put("paymentUrl", notice.dataText("payment_url"));
        String hash = transaction(notice);
        variables.put("transaction", hash);
        variables.put("explorerUrl", explorerUrl(network(notice), hash));
        variables.put("orderId", notice.dataText("order_id"));
        long periods = notice.data().path("periods").asLong(0);
        variables.put("periods", periods > 0 ? Words.count(periods, "payment") : null);
        long cancelAfter = notice.notifyTo().path("cancel_after_missed").asLong(0);
        variables.put("cancelAfter", cancelAfter > 0 ? Words.count(cancelAfter, "payment") : null);
        return variables;
    }

    private static String plan(Notice notice) {
        String name = notice.notifyText("plan_name");
        return name != null ? oneLine(name) : "your plan";
    }

    /**
     * The amount with its currency: {@code notify.amount} (token units) on subscription events, {@code data.amount}
     * (already in token units) on payment events.
     */
    private static String amount(Notice notice) {
        String units = notice.notifyText("amount");
        if (units == null && notice.type().startsWith("payment.")) {
            units = notice.dataText("amount");
        }
        String currency = notice.dataText("currency");
        if (units == null) {
            return null;
        }
        return currency == null ? units : units + " " + currency;
    }

    private static String network(Notice notice) {
        String network = notice.notifyText("network");
        return network != null ? network : notice.dataText("network");
    }

    private static String transaction(Notice notice) {
        String hash = notice.dataText("tx_hash");
        return hash != null ? hash : notice.dataText("transaction_hash");
    }

    /** The explorer's page of a transaction, where one is configured for the network (matched without case). */
    private String explorerUrl(String network, String hash) {
        if (network == null || hash == null || !hash.matches("0x[0-9a-fA-F]{64}")) {
            return null;
        }
        return properties.explorers().entrySet().stream()
                .filter(entry -> entry.getKey().equalsIgnoreCase(network))
                .map(entry -> entry.getValue().replace("{hash}", hash))
                .findFirst()
                .orElse(null);
    }

    /** The merchant's name as e-mails show it: one line, or a neutral stand-in when there is none. */
    private String senderName(String merchantName) {
        return merchantName != null && !merchantName.isBlank()
                ? oneLine(merchantName)
                : "A " + properties.platformName() + " merchant";
    }

    private static String withCurrency(String units, String currency) {
        return units == null ? null : currency == null ? units : units + " " + currency;
    }

    /** Text for one header line: control characters (a line break would end the header) become spaces. */
    static String oneLine(String value) {
        return value.replaceAll("\\p{Cntrl}+", " ").strip();
    }
}
