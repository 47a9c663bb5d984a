package dev.cryptopay.testsupport.mail;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.mail.Message;
import jakarta.mail.Multipart;
import jakarta.mail.Session;
import jakarta.mail.Transport;
import jakarta.mail.internet.InternetAddress;
import jakarta.mail.internet.MimeBodyPart;
import jakarta.mail.internet.MimeMessage;
import jakarta.mail.internet.MimeMultipart;
import java.time.Duration;
import java.util.List;
import java.util.Properties;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class TestMailTest {

    private static String fresh(String name) {
        return name + "-" + UUID.randomUUID() + "@example.com";
    }

    /** Sends over SMTP to the server's port, as a service's mail sender would. */
    private static void send(String subject, String text, String html, String to, String bcc) throws Exception {
        Properties smtp = new Properties();
        smtp.put("mail.smtp.host", "127.0.0.1");
        smtp.put("mail.smtp.port", Integer.toString(TestMail.smtpPort()));
        MimeMessage message = new MimeMessage(Session.getInstance(smtp));
        message.setFrom(new InternetAddress("shop@example.com", "A shop"));
        message.setRecipients(Message.RecipientType.TO, InternetAddress.parse(to));
        if (bcc != null) {
            message.setRecipients(Message.RecipientType.BCC, InternetAddress.parse(bcc));
        }
        message.setSubject(subject, "UTF-8");
        MimeBodyPart textPart = new MimeBodyPart();
        textPart.setText(text, "UTF-8");
        MimeBodyPart htmlPart = new MimeBodyPart();
        htmlPart.setContent(html, "text/html; charset=UTF-8");
        message.setContent(new MimeMultipart("alternative", textPart, htmlPart));
        Transport.send(message);
    }

    @Test
    void aMessageSentOverSmtpIsReadBackWithItsPartsByEachRecipientOfTheEnvelope() throws Exception {
        String customer = fresh("customer");
        String copy = fresh("copy");
        String other = fresh("other");

        send("Your receipt — 10.50 USDC", "Paid 10.50 USDC.", "<p>Paid <b>10.50</b> USDC.</p>", customer, copy);

        List<MimeMessage> received = TestMail.await(customer, 1, Duration.ofSeconds(10));
        assertThat(received).hasSize(1);
        MimeMessage message = received.get(0);
        assertThat(message.getSubject()).isEqualTo("Your receipt — 10.50 USDC");
        assertThat(((InternetAddress) message.getFrom()[0]).getPersonal()).isEqualTo("A shop");
        Multipart parts = (Multipart) message.getContent();
        assertThat(parts.getCount()).isEqualTo(2);
        assertThat(parts.getBodyPart(0).getContentType()).startsWith("text/plain");
        assertThat(((String) parts.getBodyPart(0).getContent()).trim()).isEqualTo("Paid 10.50 USDC.");
        assertThat(parts.getBodyPart(1).getContentType()).startsWith("text/html");
        assertThat(((String) parts.getBodyPart(1).getContent()).trim()).isEqualTo("<p>Paid <b>10.50</b> USDC.</p>");

        assertThat(TestMail.await(copy, 1, Duration.ofSeconds(10)))
                .as("a Bcc recipient's mailbox has it too")
                .hasSize(1);
        assertThat(TestMail.to(other)).isEmpty();
    }

    @Test
    void waitingForMoreThanArrivedFailsNamingTheRecipient() throws Exception {
        String customer = fresh("late");
        send("One", "one", "<p>one</p>", customer, null);

        assertThat(TestMail.await(customer, 1, Duration.ofSeconds(10))).hasSize(1);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> TestMail.await(customer, 2, Duration.ofMillis(300)))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining(customer)
                .hasMessageContaining("received 1");
    }
}
