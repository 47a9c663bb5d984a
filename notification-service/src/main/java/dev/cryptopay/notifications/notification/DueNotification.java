package dev.cryptopay.notifications.notification;

import java.util.UUID;

/**
 * A claimed e-mail, with what sending it needs.
 *
 * @param attempts attempts so far, this one included
 */
public record DueNotification(
        UUID id,
        String template,
        String recipient,
        String senderName,
        String replyTo,
        String subject,
        String html,
        String text,
        int attempts) {}
