package dev.cryptopay.notifications.reminder;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cryptopay.auth.internal.MerchantIdentity;
import dev.cryptopay.notifications.NotificationTestBase;
import dev.cryptopay.testsupport.chain.DevChain;
import dev.cryptopay.testsupport.chain.DevTokens;
import dev.cryptopay.testsupport.mail.MimeParts;
import dev.cryptopay.testsupport.mail.TestMail;
import jakarta.mail.internet.MimeMessage;
import java.math.BigInteger;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.web3j.abi.datatypes.Address;
import org.web3j.abi.datatypes.Function;
import org.web3j.abi.datatypes.Type;
import org.web3j.abi.datatypes.generated.Uint256;
import org.web3j.crypto.Keys;

/**
 * The reminder before a subscription's next pull, on the dev chain: scheduled from the event's
 * {@code notify.next_payment}, sent at the reminder's moment (the service's clock moved there, three days before the
 * due time), and worded from the wallet's real balance and allowance.
 */
class ReminderTest extends NotificationTestBase {

    private static final BigInteger TEN_USDC = DevTokens.USDC.baseUnits("10");

    @Autowired
    ReminderLoop reminders;

    @Test
    void aWalletThatAllowsTooLittleIsToldBeforeThePaymentFailsAndWhereToRaiseTheAllowance() throws Exception {
        String wallet = CHAIN.accounts().get(6);
        String spender = freshAddress();
        CHAIN.mint(DevTokens.USDC, wallet, TEN_USDC);
        approve(wallet, spender, DevTokens.USDC.baseUnits("2.5"));
        String to = address("short");
        String link = UUID.randomUUID().toString();
        Instant due = clock.instant().plus(Duration.ofDays(10)).truncatedTo(ChronoUnit.SECONDS);
        activated(newMerchant(), to, link, due, wallet, spender);

        assertThat(reminders.runDue().block()).as("not before its moment").isZero();
        clock.advance(Duration.ofDays(7).minusMinutes(1));
        assertThat(reminders.runDue().block()).isZero();
        clock.advance(Duration.ofMinutes(1));
        assertThat(reminders.runDue().block()).isEqualTo(1);
        assertThat(reminders.runDue().block()).as("one reminder per payment").isZero();
        sender.drain().block();

        MimeMessage mail = reminderTo(to);
        assertThat(mail.getSubject()).startsWith("[Test mode] Action needed: 10 USDC for Pro on ");
        String text = MimeParts.part(mail, "text/plain");
        assertThat(text)
                .contains("AS THINGS STAND THE PAYMENT WILL FAIL.")
                .contains("Your wallet allows the subscription to take only 2.5 USDC: raise the allowance")
                .doesNotContain("less than the 10 USDC due")
                .contains("Your subscription: https://pay.test/subscribe?subscriber_id=");
        assertThat(MimeParts.part(mail, "text/html")).contains("Raise the allowance");
    }

    @Test
    void aWalletThatHoldsNothingIsToldSoAndOneThatCoversItIsToldNothingIsToDo() throws Exception {
        String empty = freshAddress();
        String spender = freshAddress();
        String poor = address("poor");
        Instant due = clock.instant().plus(Duration.ofDays(4)).truncatedTo(ChronoUnit.SECONDS);
        activated(newMerchant(), poor, UUID.randomUUID().toString(), due, empty, spender);

        String rich = CHAIN.accounts().get(7);
        CHAIN.mint(DevTokens.USDC, rich, TEN_USDC);
        approve(rich, spender, TEN_USDC);
        String fine = address("fine");
        activated(newMerchant(), fine, UUID.randomUUID().toString(), due, rich, spender);

        clock.advance(Duration.ofDays(1));
        assertThat(reminders.runDue().block()).isEqualTo(2);
        sender.drain().block();

        String poorText = MimeParts.part(reminderTo(poor), "text/plain");
        assertThat(poorText)
                .contains("Your wallet holds 0 USDC, less than the 10 USDC due")
                .contains("Your wallet allows the subscription to take only 0 USDC");
        MimeMessage covered = reminderTo(fine);
        assertThat(covered.getSubject()).startsWith("[Test mode] Upcoming payment: 10 USDC for Pro on ");
        assertThat(MimeParts.part(covered, "text/plain"))
                .contains("the payment will be taken when it is due. Nothing to do.")
                .doesNotContain("WILL FAIL");
    }

    @Test
    void aCollectionMovesTheReminderToTheNextPeriodAndACancellationRemovesIt() throws Exception {
        MerchantIdentity merchant = newMerchant();
        String to = address("moving");
        String link = UUID.randomUUID().toString();
        String wallet = freshAddress();
        Instant first = clock.instant().plus(Duration.ofDays(2)).truncatedTo(ChronoUnit.SECONDS);
        activated(merchant, to, link, first, wallet, freshAddress());
        assertThat(reminders.runDue().block())
                .as("inside the lead already: at once")
                .isEqualTo(1);

        Instant second = first.plus(Duration.ofDays(30));
        String collected = publish(
                "subscriptions.events",
                merchant,
                "subscription.payment.success",
                data(link, "active"),
                notify(to, second, wallet, freshAddress()));
        await("the collection read", () -> notificationsOf(collected) == 1);
        clock.advance(Duration.ofDays(29)); // three days before the second due time
        assertThat(reminders.runDue().block()).as("the next period's reminder").isEqualTo(1);

        Instant third = second.plus(Duration.ofDays(30));
        publish(
                "subscriptions.events",
                merchant,
                "subscription.payment.success",
                data(link, "active"),
                notify(to, third, wallet, freshAddress()));
        String cancelled = publish(
                "subscriptions.events",
                merchant,
                "subscription.cancelled",
                data(link, "cancelled"),
                notify(to, null, null, null));
        await("the cancellation read", () -> notificationsOf(cancelled) == 1);
        clock.advance(Duration.ofDays(30));
        assertThat(reminders.runDue().block()).as("cancelled: no reminder").isZero();
        sender.drain().block();
        assertThat(TestMail.to(to))
                .extracting(MimeMessage::getSubject)
                .filteredOn(subject -> subject.contains("10 USDC for Pro on"))
                .hasSize(2);
    }

    @Test
    void aChainThisServiceDoesNotReadStillGetsAReminderSayingWhatToCheck() throws Exception {
        String to = address("unread");
        Map<String, Object> notify =
                notify(to, clock.instant().plus(Duration.ofDays(1)), freshAddress(), freshAddress());
        @SuppressWarnings("unchecked")
        Map<String, Object> next = (Map<String, Object>) notify.get("next_payment");
        next.put("chain_id", 999_999);
        String event = publish(
                "subscriptions.events",
                newMerchant(),
                "subscription.activated",
                data(UUID.randomUUID().toString(), "active"),
                notify);
        await("read", () -> notificationsOf(event) == 1);

        assertThat(reminders.runDue().block()).isEqualTo(1);
        sender.drain().block();

        assertThat(MimeParts.part(reminderTo(to), "text/plain"))
                .contains(
                        "Make sure your wallet holds at least 10 USDC and allows the subscription to take it by then.");
    }

    /** The reminder among the e-mails to {@code to} (the activation's e-mail comes too), waited for. */
    private static MimeMessage reminderTo(String to) throws Exception {
        List<MimeMessage> received = TestMail.await(to, 2, Duration.ofSeconds(10));
        for (MimeMessage mail : received) {
            if (mail.getSubject().contains(" for Pro on ")) {
                return mail;
            }
        }
        throw new AssertionError("no reminder among the e-mails to " + to);
    }

    private void activated(
            MerchantIdentity merchant, String to, String link, Instant due, String wallet, String spender) {
        String event = publish(
                "subscriptions.events",
                merchant,
                "subscription.activated",
                data(link, "active"),
                notify(to, due, wallet, spender));
        await("the activation read", () -> notificationsOf(event) == 1);
    }

    private static Map<String, Object> data(String link, String status) {
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("subscription_link_id", link);
        data.put("subscriber_id", UUID.randomUUID().toString());
        data.put("status", status);
        data.put("amount", "10000000");
        data.put("currency", "USDC");
        return data;
    }

    /** The notify member of a subscription event; with a due time, its next payment. */
    private static Map<String, Object> notify(String to, Instant due, String wallet, String spender) {
        Map<String, Object> notify = new LinkedHashMap<>();
        notify.put("customer_email", to);
        notify.put("customer_name", "Ada");
        notify.put("merchant_name", "Shop");
        notify.put("subscription_link_url", "https://pay.test/subscribe?subscriber_id=s-1");
        notify.put("plan_name", "Pro");
        notify.put("amount", "10");
        notify.put("interval_seconds", 2_592_000);
        notify.put("network", "Local dev chain");
        if (due != null) {
            Map<String, Object> next = new LinkedHashMap<>();
            next.put("at", due.toString());
            next.put("amount", "10");
            next.put("amount_base_units", TEN_USDC.toString());
            next.put("decimals", 6);
            next.put("wallet", wallet);
            next.put("chain_id", DevChain.CHAIN_ID);
            next.put("token_contract", DevTokens.USDC.address());
            next.put("spender", spender);
            notify.put("next_payment", next);
        }
        return notify;
    }

    private static void approve(String wallet, String spender, BigInteger amount) {
        CHAIN.send(
                wallet,
                DevTokens.USDC.address(),
                new Function("approve", List.<Type>of(new Address(spender), new Uint256(amount)), List.of()));
    }

    private static String freshAddress() {
        try {
            return Keys.toChecksumAddress(Keys.getAddress(Keys.createEcKeyPair()));
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }
}
