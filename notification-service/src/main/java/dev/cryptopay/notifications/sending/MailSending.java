package dev.cryptopay.notifications.sending;

import dev.cryptopay.notifications.config.NotificationProperties;
import dev.cryptopay.notifications.notification.DueNotification;
import jakarta.mail.MessagingException;
import jakarta.mail.internet.InternetAddress;
import jakarta.mail.internet.MimeMessage;
import java.io.UnsupportedEncodingException;
import java.nio.charset.StandardCharsets;
import org.springframework.mail.javamail.JavaMailSender;
import org.springframework.mail.javamail.MimeMessageHelper;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/** Hands one e-mail to the SMTP server (JavaMail blocks, so on the bounded elastic scheduler). */
@Component
class MailSending {

    /** Names the kept e-mail in every message, so a message can be traced back to its row. */
    static final String NOTIFICATION_ID_HEADER = "X-Notification-Id";

    private final JavaMailSender mail;
    private final NotificationProperties properties;

    MailSending(JavaMailSender mail, NotificationProperties properties) {
        this.mail = mail;
        this.properties = properties;
    }

    /** Completes when the server accepted the message; fails with the server's refusal or the connection's failure. */
    Mono<Void> send(DueNotification notification) {
        return Mono.<Void>fromRunnable(() -> mail.send(message(notification))).subscribeOn(Schedulers.boundedElastic());
    }

    private MimeMessage message(DueNotification notification) {
        MimeMessage message = mail.createMimeMessage();
        try {
            MimeMessageHelper helper = new MimeMessageHelper(
                    message, MimeMessageHelper.MULTIPART_MODE_MIXED_RELATED, StandardCharsets.UTF_8.name());
            helper.setFrom(new InternetAddress(
                    properties.fromAddress(), notification.senderName(), StandardCharsets.UTF_8.name()));
            helper.setTo(new InternetAddress(notification.recipient(), true));
            if (notification.replyTo() != null) {
                helper.setReplyTo(notification.replyTo());
            }
            helper.setSubject(notification.subject());
            helper.setText(notification.text(), notification.html());
            message.setHeader(NOTIFICATION_ID_HEADER, notification.id().toString());
            return message;
        } catch (MessagingException | UnsupportedEncodingException e) {
            throw new MessageNotBuilt(e);
        }
    }

    /** The message could not be made (an address that is no address, for one): not worth another attempt. */
    static final class MessageNotBuilt extends RuntimeException {
        MessageNotBuilt(Exception cause) {
            super(cause.getMessage(), cause);
        }
    }
}
