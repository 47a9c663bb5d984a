package dev.cryptopay.notifications.notification;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.time.Instant;
import java.util.UUID;

/**
 * One e-mail of the merchant's log.
 *
 * @param template which e-mail ({@code subscription_invitation}, ...)
 * @param status {@code pending}, {@code sent}, {@code failed} (refused for good) or {@code given_up}
 * @param lastError the SMTP server's last answer or the connection's failure, null after a success
 * @param nextAttemptAt while pending: when it is tried (again); null otherwise
 * @param text the plain-text part as sent; only on {@code GET /notifications/emails/{id}}
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record EmailResponse(
        UUID id,
        UUID eventId,
        String eventType,
        String template,
        String recipient,
        String subject,
        String status,
        int attempts,
        String lastError,
        Instant nextAttemptAt,
        Instant sentAt,
        Instant createdAt,
        boolean livemode,
        String text) {}
