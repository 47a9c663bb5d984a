package dev.cryptopay.notifications.sending;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cryptopay.auth.internal.MerchantIdentity;
import dev.cryptopay.notifications.NotificationTestBase;
import dev.cryptopay.testsupport.mail.RefusingSmtpServer;
import dev.cryptopay.testsupport.mail.TestMail;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.mail.javamail.JavaMailSenderImpl;

/** What happens when the SMTP server refuses: retries at 1 min, 10 min, 1 h and 6 h, then given up; 5xx at once. */
class RetryScheduleTest extends NotificationTestBase {

    @Autowired
    JavaMailSenderImpl mail;

    /** Back to the real server, and nothing left due: the next test's counts are its own. */
    @AfterEach
    void backToTheRealServer() {
        mail.setPort(TestMail.smtpPort());
        database.sql("UPDATE notification SET status = 'given_up' WHERE status = 'pending'")
                .then()
                .block();
    }

    @Test
    void aRelayThatKeepsRefusingIsRetriedOnTheScheduleThenGivenUp() {
        try (RefusingSmtpServer full = new RefusingSmtpServer(
                "451 4.3.0 Mail server temporarily rejected message", RefusingSmtpServer.At.MAIL_FROM)) {
            mail.setPort(full.port());
            String event = invite(address("busy"));
            double givenUpBefore = givenUp();

            assertThat(sender.drain().block()).isEqualTo(1);
            assertPending(event, 1, Duration.ofMinutes(1));
            assertThat(column(event, "last_error", String.class))
                    .contains("451 4.3.0 Mail server temporarily rejected");
            assertThat(sender.drain().block()).as("not due before its wait").isZero();

            for (Duration wait : new Duration[] {Duration.ofMinutes(1), Duration.ofMinutes(10), Duration.ofHours(1)}) {
                clock.advance(wait.minusSeconds(1));
                assertThat(sender.drain().block()).isZero();
                clock.advance(Duration.ofSeconds(1));
                assertThat(sender.drain().block()).isEqualTo(1);
            }
            assertPending(event, 4, Duration.ofHours(6));
            clock.advance(Duration.ofHours(6));
            assertThat(sender.drain().block()).isEqualTo(1);

            assertThat(column(event, "status", String.class)).isEqualTo("given_up");
            assertThat(column(event, "attempts", Integer.class)).isEqualTo(5);
            assertThat(full.refused()).isEqualTo(5);
            assertThat(givenUp()).isEqualTo(givenUpBefore + 1);
            clock.advance(Duration.ofDays(1));
            assertThat(sender.drain().block()).as("never again").isZero();
        }
    }

    @Test
    void aPermanentRefusalEndsTheEmailAtOnceWithTheServersAnswer() {
        try (RefusingSmtpServer never =
                new RefusingSmtpServer("550 5.1.1 No such mailbox here", RefusingSmtpServer.At.RCPT_TO)) {
            mail.setPort(never.port());
            String event = invite(address("unknown"));

            assertThat(sender.drain().block()).isEqualTo(1);

            assertThat(column(event, "status", String.class)).isEqualTo("failed");
            assertThat(column(event, "last_error", String.class)).contains("550 5.1.1 No such mailbox here");
            clock.advance(Duration.ofDays(1));
            assertThat(sender.drain().block()).isZero();
        }
    }

    @Test
    void anAddressThatIsNoAddressFailsWithoutAnAttemptAtTheServer() {
        String event = invite("not an address@@customer.test");

        assertThat(sender.drain().block()).isEqualTo(1);

        assertThat(column(event, "status", String.class)).isEqualTo("failed");
        assertThat(column(event, "last_error", String.class)).startsWith("Not a valid e-mail address");
    }

    @Test
    void aRelayBackAfterARefusalGetsTheEmailOnceOnTheNextAttempt() {
        String to = address("later");
        String event;
        try (RefusingSmtpServer full =
                new RefusingSmtpServer("421 4.7.0 Try again later", RefusingSmtpServer.At.MAIL_FROM)) {
            mail.setPort(full.port());
            event = invite(to);
            assertThat(sender.drain().block()).isEqualTo(1);
        }
        mail.setPort(TestMail.smtpPort());
        assertThat(TestMail.to(to)).isEmpty();
        clock.advance(Duration.ofMinutes(1));

        assertThat(sender.drain().block()).isEqualTo(1);

        assertThat(TestMail.await(to, 1, Duration.ofSeconds(10))).hasSize(1);
        assertThat(column(event, "status", String.class)).isEqualTo("sent");
        assertThat(column(event, "last_error", String.class)).isNull();
        assertThat(column(event, "sent_at", OffsetDateTime.class).toInstant()).isEqualTo(clock.instant());
    }

    @Test
    void aRelayThatIsNotThereIsRetriedLikeARefusal() {
        try (RefusingSmtpServer gone = new RefusingSmtpServer("unused", RefusingSmtpServer.At.MAIL_FROM)) {
            mail.setPort(gone.port());
        } // closed: connections are refused
        String event = invite(address("nobody-home"));

        assertThat(sender.drain().block()).isEqualTo(1);

        assertPending(event, 1, Duration.ofMinutes(1));
        assertThat(column(event, "last_error", String.class)).containsIgnoringCase("connect");
    }

    /** Publishes an invitation to {@code to} and waits until its e-mail is kept. */
    private String invite(String to) {
        MerchantIdentity merchant = newMerchant();
        String event = publish(
                "subscriptions.events",
                merchant,
                "subscriber.invited",
                Map.of("subscriber_id", UUID.randomUUID().toString(), "status", "invitation_sent"),
                Map.of("customer_email", to, "merchant_name", "Shop", "plan_name", "Pro"));
        await("e-mail kept", () -> notificationsOf(event) == 1);
        return event;
    }

    private void assertPending(String event, int attempts, Duration wait) {
        assertThat(column(event, "status", String.class)).isEqualTo("pending");
        assertThat(column(event, "attempts", Integer.class)).isEqualTo(attempts);
        assertThat(column(event, "next_attempt_at", OffsetDateTime.class).toInstant())
                .isEqualTo(clock.instant().plus(wait));
    }

    /** E-mails given up so far (0 before the first: the series appears with it). */
    private double givenUp() {
        return prometheus()
                .lines()
                .filter(line -> line.startsWith("notifications_attempts_total{")
                        && line.contains("outcome=\"given_up\"")
                        && line.contains("template=\"subscription_invitation\""))
                .mapToDouble(line -> Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1)))
                .sum();
    }
}
