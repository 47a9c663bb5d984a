package dev.cryptopay.notifications.intake;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cryptopay.auth.Mode;
import dev.cryptopay.auth.internal.MerchantIdentity;
import dev.cryptopay.notifications.NotificationTestBase;
import dev.cryptopay.testsupport.mail.MimeParts;
import dev.cryptopay.testsupport.mail.TestMail;
import jakarta.mail.Address;
import jakarta.mail.internet.InternetAddress;
import jakarta.mail.internet.MimeMessage;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** Events become the customer's e-mails, end to end: the topic, the kept row, SMTP, the mailbox. */
class CustomerEmailsTest extends NotificationTestBase {

    private static final String SUBSCRIBE_URL = "https://pay.test/subscribe?subscriber_id=";
    private static final String TX = "0x" + "ab".repeat(32);

    @Test
    void anInvitationCarriesThePlansTermsAndTheSubscribePageInBothParts() throws Exception {
        MerchantIdentity merchant = newMerchant();
        String to = address("ada");
        String subscriber = UUID.randomUUID().toString();
        String event = publish(
                "subscriptions.events",
                merchant,
                "subscriber.invited",
                subscriptionData(subscriber, "invitation_sent", null),
                notify(to, subscriber));
        keptAndSent(event);

        MimeMessage mail = single(to);
        assertThat(mail.getSubject()).isEqualTo("[Test mode] Café & Co invites you to subscribe: Pro <gold>");
        InternetAddress from = (InternetAddress) mail.getFrom()[0];
        assertThat(from.getPersonal()).isEqualTo("Café & Co via CryptoPay");
        assertThat(from.getAddress()).isEqualTo("notifications@cryptopay.local");
        assertThat(recipients(mail)).containsExactly(to);

        String html = MimeParts.part(mail, "text/html");
        String text = MimeParts.part(mail, "text/plain");
        assertThat(html)
                .contains("Hello Ada &lt;b&gt;Lovelace&lt;/b&gt;,")
                .contains("Café &amp; Co")
                .contains("Pro &lt;gold&gt;")
                .contains("10.5 USDC")
                .contains("30 days")
                .contains("Anvil")
                .contains("href=\"" + SUBSCRIBE_URL + subscriber + "\"")
                .contains("Test mode")
                .doesNotContain("<b>Lovelace")
                .doesNotContain("<gold>");
        assertThat(text)
                .contains("Hello Ada <b>Lovelace</b>,")
                .contains("Café & Co invites you to subscribe to Pro <gold>")
                .contains("Amount: 10.5 USDC")
                .contains("Billed every: 30 days")
                .contains("Network: Anvil")
                .contains("Review and subscribe: " + SUBSCRIBE_URL + subscriber)
                .contains("TEST MODE");
        assertThat(column(event, "status", String.class)).isEqualTo("sent");
        assertThat(column(event, "template", String.class)).isEqualTo("subscription_invitation");
    }

    @Test
    void aLiveReceiptLinksTheTransactionOnTheNetworksExplorerAndSaysNothingOfTestMode() throws Exception {
        MerchantIdentity merchant = new MerchantIdentity(UUID.randomUUID(), Mode.LIVE);
        String to = address("grace");
        String subscriber = UUID.randomUUID().toString();
        String event = publish(
                "subscriptions.events",
                merchant,
                "subscription.payment.success",
                subscriptionData(subscriber, "active", TX),
                notify(to, subscriber));
        keptAndSent(event);

        MimeMessage mail = single(to);
        assertThat(mail.getSubject()).isEqualTo("Receipt from Café & Co: 10.5 USDC for Pro <gold>");
        String html = MimeParts.part(mail, "text/html");
        assertThat(html)
                .contains("href=\"https://explorer.test/tx/" + TX + "\"")
                .contains(TX)
                .doesNotContain("Test mode");
        assertThat(MimeParts.part(mail, "text/plain"))
                .contains("Transaction: " + TX)
                .contains("https://explorer.test/tx/" + TX)
                .doesNotContain("TEST MODE");
    }

    @Test
    void eachSubscriptionMomentHasItsEmailAndAPaymentLinkItsReceipt() throws Exception {
        MerchantIdentity merchant = newMerchant();
        String to = address("linus");
        String subscriber = UUID.randomUUID().toString();
        String activated = publish(
                "subscriptions.events",
                merchant,
                "subscription.activated",
                subscriptionData(subscriber, "active", null),
                notify(to, subscriber));
        Map<String, Object> payment = new LinkedHashMap<>();
        payment.put("id", UUID.randomUUID().toString());
        payment.put("amount", "25.00");
        payment.put("currency", "USDC");
        payment.put("status", "completed");
        payment.put("network", "Anvil");
        payment.put("transaction_hash", TX);
        payment.put("payment_url", "https://pay.test/checkout/abc");
        payment.put("order_id", "order-<7>");
        keptAndSent(activated); // names the merchant: "Café & Co"
        String completed =
                publish("payment-links.events", merchant, "payment.completed", payment, Map.of("customer_email", to));
        String cancelled = publish(
                "subscriptions.events",
                merchant,
                "subscription.cancelled",
                subscriptionData(subscriber, "cancelled", null),
                notify(to, subscriber));
        keptAndSent(completed);
        keptAndSent(cancelled);

        assertThat(TestMail.to(to))
                .extracting(MimeMessage::getSubject)
                .containsExactlyInAnyOrder(
                        "[Test mode] Your subscription to Pro <gold> is active",
                        "[Test mode] Your subscription to Pro <gold> was cancelled",
                        "[Test mode] Receipt from Café & Co: 25.00 USDC");
        MimeMessage receipt = TestMail.to(to).stream()
                .filter(mail -> subject(mail).contains("Receipt"))
                .findFirst()
                .orElseThrow();
        assertThat(MimeParts.part(receipt, "text/html"))
                .contains("order-&lt;7&gt;")
                .contains("href=\"https://pay.test/checkout/abc\"")
                .contains("Hello,");
        assertThat(MimeParts.part(receipt, "text/plain"))
                .contains("Order: order-<7>")
                .contains("Amount: 25.00 USDC");
    }

    @Test
    void aMissedPaymentSaysWhatWasMissedWhatToDoAndWhenTheSubscriptionEndsAndAReorganisationSaysNothing()
            throws Exception {
        MerchantIdentity merchant = newMerchant();
        String to = address("missed");
        String subscriber = UUID.randomUUID().toString();
        Map<String, Object> reorganised = subscriptionData(subscriber, "active", TX);
        reorganised.put("reason", "reorganised");
        String taken = publish(
                "subscriptions.events", merchant, "subscription.payment.failed", reorganised, notify(to, subscriber));
        Map<String, Object> missed = subscriptionData(subscriber, "active", null);
        missed.put("reason", "missed");
        missed.put("periods", 2);
        Map<String, Object> notify = notify(to, subscriber);
        notify.put("amount", "21");
        notify.put("cancel_after_missed", 3);
        String event = publish("subscriptions.events", merchant, "subscription.payment.failed", missed, notify);
        keptAndSent(event);

        assertThat(notificationsOf(taken)).isZero();
        MimeMessage mail = single(to);
        assertThat(mail.getSubject()).isEqualTo("[Test mode] Payment missed: 21 USDC for Pro <gold>");
        assertThat(MimeParts.part(mail, "text/html"))
                .contains("<strong>21 USDC</strong>")
                .contains("2 payments")
                .contains("3 payments")
                .contains("href=\"" + SUBSCRIBE_URL + subscriber + "\"");
        assertThat(MimeParts.part(mail, "text/plain"))
                .contains("Café & Co could not collect 21 USDC for Pro <gold> (2 payments missed).")
                .contains("If 3 payments in a row are missed, the subscription is cancelled.")
                .contains("Open your subscription: " + SUBSCRIBE_URL + subscriber);
    }

    @Test
    void aMerchantNoEventNamedIsAPlatformMerchantInItsReceipt() throws Exception {
        MerchantIdentity merchant = newMerchant();
        String to = address("anon");
        String event = publish(
                "payment-links.events",
                merchant,
                "payment.completed",
                Map.of("id", UUID.randomUUID().toString(), "amount", "1.5", "currency", "USDC", "network", "Anvil"),
                Map.of("customer_email", to, "customer_name", "Bo"));
        keptAndSent(event);

        MimeMessage mail = single(to);
        assertThat(mail.getSubject()).isEqualTo("[Test mode] Receipt from A CryptoPay merchant: 1.5 USDC");
        assertThat(((InternetAddress) mail.getFrom()[0]).getPersonal()).isEqualTo("A CryptoPay merchant via CryptoPay");
        assertThat(MimeParts.part(mail, "text/plain")).contains("Hello Bo,").contains("Network: Anvil");
    }

    @Test
    void anEventDeliveredTwiceMakesOneEmail() throws Exception {
        MerchantIdentity merchant = newMerchant();
        String to = address("twice");
        String subscriber = UUID.randomUUID().toString();
        String id = UUID.randomUUID().toString();
        for (int i = 0; i < 2; i++) {
            publish(
                    "subscriptions.events",
                    id,
                    merchant,
                    "subscription.activated",
                    subscriptionData(subscriber, "active", null),
                    notify(to, subscriber));
        }
        String later = publish(
                "subscriptions.events",
                merchant,
                "subscription.cancelled",
                subscriptionData(subscriber, "cancelled", null),
                notify(to, subscriber));
        await("the later event kept", () -> notificationsOf(later) == 1);
        sender.drain().block();
        sender.drain().block();

        assertThat(notificationsOf(id)).isEqualTo(1);
        assertThat(TestMail.to(to)).extracting(MimeMessage::getSubject).hasSize(2);
    }

    @Test
    void nothingIsSentWithoutAnAddressOrForEventsNoEmailIsAbout() {
        MerchantIdentity merchant = newMerchant();
        String subscriber = UUID.randomUUID().toString();
        String withoutAddress = publish(
                "subscriptions.events",
                merchant,
                "subscription.activated",
                subscriptionData(subscriber, "active", null),
                null);
        String notAbout = publish(
                "payment-links.events",
                merchant,
                "payment.created",
                Map.of("id", UUID.randomUUID().toString(), "amount", "1", "currency", "USDC"),
                Map.of("customer_email", address("created")));
        String later = publish(
                "subscriptions.events",
                merchant,
                "subscription.cancelled",
                subscriptionData(subscriber, "cancelled", null),
                notify(address("later"), subscriber));
        await("the later event kept", () -> notificationsOf(later) == 1);

        assertThat(notificationsOf(withoutAddress)).isZero();
        assertThat(notificationsOf(notAbout)).isZero();
    }

    /** Waits until the event's e-mail is kept, then sends everything due. */
    private void keptAndSent(String event) {
        await("e-mail of " + event + " kept", () -> notificationsOf(event) == 1);
        sender.drain().block();
    }

    static Map<String, Object> subscriptionData(String subscriber, String status, String txHash) {
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("subscription_link_id", null);
        data.put("plan_id", UUID.randomUUID().toString());
        data.put("subscriber_id", subscriber);
        data.put("status", status);
        data.put("amount", "10500000");
        data.put("currency", "USDC");
        data.put("tx_hash", txHash);
        data.put("metadata", Map.of());
        return data;
    }

    static Map<String, Object> notify(String to, String subscriber) {
        Map<String, Object> notify = new LinkedHashMap<>();
        notify.put("customer_email", to);
        notify.put("customer_name", "Ada <b>Lovelace</b>");
        notify.put("merchant_name", "Café & Co");
        notify.put("subscription_link_url", SUBSCRIBE_URL + subscriber);
        notify.put("plan_name", "Pro <gold>");
        notify.put("amount", "10.5");
        notify.put("interval_seconds", 2_592_000);
        notify.put("network", "Anvil");
        return notify;
    }

    static MimeMessage single(String to) {
        List<MimeMessage> received = TestMail.await(to, 1, Duration.ofSeconds(10));
        assertThat(received).hasSize(1);
        return received.get(0);
    }

    static List<String> recipients(MimeMessage mail) throws Exception {
        return List.of(mail.getAllRecipients()).stream().map(Address::toString).toList();
    }

    static String subject(MimeMessage mail) {
        try {
            return mail.getSubject();
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }
}
