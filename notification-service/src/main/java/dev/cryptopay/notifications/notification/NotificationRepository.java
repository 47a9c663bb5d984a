package dev.cryptopay.notifications.notification;

import static dev.cryptopay.service.db.SqlValues.utc;

import dev.cryptopay.auth.Mode;
import dev.cryptopay.notifications.email.Email;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.stereotype.Repository;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/** The {@code notification} table: kept e-mails and their sending state. */
@Repository
public class NotificationRepository {

    private final DatabaseClient database;

    public NotificationRepository(DatabaseClient database) {
        this.database = database;
    }

    /** An e-mail made from an event, to keep. */
    public record NewNotification(UUID eventId, String eventType, UUID merchantId, Mode mode, Email email) {}

    /**
     * Keeps each e-mail once per (event, template, recipient), due now; an e-mail kept before (a redelivered event)
     * is left as it is. Answers how many were new.
     */
    public Mono<Long> insertNew(List<NewNotification> notifications, Instant now) {
        return Flux.fromIterable(notifications)
                .concatMap(notification -> database.sql("INSERT INTO notification (id, event_id, event_type, template, "
                                + "merchant_id, mode, recipient, sender_name, subject, html_body, text_body, status, "
                                + "next_attempt_at, created_at) VALUES (:id, :event, :type, :template, :merchant, :mode, "
                                + ":recipient, :sender, :subject, :html, :text, 'pending', :now, :now) "
                                + "ON CONFLICT (event_id, template, recipient) DO NOTHING")
                        .bind("id", UUID.randomUUID())
                        .bind("event", notification.eventId())
                        .bind("type", notification.eventType())
                        .bind("template", notification.email().template())
                        .bind("merchant", notification.merchantId())
                        .bind("mode", notification.mode().wireName())
                        .bind("recipient", notification.email().recipient())
                        .bind("sender", notification.email().senderName())
                        .bind("subject", notification.email().subject())
                        .bind("html", notification.email().html())
                        .bind("text", notification.email().text())
                        .bind("now", utc(now))
                        .fetch()
                        .rowsUpdated())
                .reduce(0L, Long::sum);
    }

    /**
     * Claims up to {@code limit} due e-mails for this instance: each counts one more attempt and is not due again
     * until {@code leaseEnd}, so another instance (or this one after a crash) takes it only once the lease ran out.
     */
    public Flux<DueNotification> claim(Instant now, int limit, Instant leaseEnd) {
        return database.sql("UPDATE notification SET attempts = attempts + 1, next_attempt_at = :lease WHERE id IN ("
                        + "SELECT id FROM notification WHERE status = 'pending' AND next_attempt_at <= :now "
                        + "ORDER BY next_attempt_at LIMIT :limit FOR UPDATE SKIP LOCKED) "
                        + "RETURNING id, template, recipient, sender_name, reply_to, subject, html_body, text_body, "
                        + "attempts")
                .bind("now", utc(now))
                .bind("limit", limit)
                .bind("lease", utc(leaseEnd))
                .map(row -> new DueNotification(
                        row.get("id", UUID.class),
                        row.get("template", String.class),
                        row.get("recipient", String.class),
                        row.get("sender_name", String.class),
                        row.get("reply_to", String.class),
                        row.get("subject", String.class),
                        row.get("html_body", String.class),
                        row.get("text_body", String.class),
                        row.get("attempts", Integer.class)))
                .all();
    }

    /** The SMTP server accepted the e-mail. */
    public Mono<Void> sent(UUID id, Instant now) {
        return database.sql("UPDATE notification SET status = 'sent', sent_at = :now, last_error = NULL "
                        + "WHERE id = :id AND status = 'pending'")
                .bind("id", id)
                .bind("now", utc(now))
                .then();
    }

    /** The attempt failed; the e-mail is due again at {@code retryAt}. */
    public Mono<Void> retryAt(UUID id, String error, Instant retryAt) {
        return database.sql("UPDATE notification SET next_attempt_at = :at, last_error = :error "
                        + "WHERE id = :id AND status = 'pending'")
                .bind("id", id)
                .bind("at", utc(retryAt))
                .bind("error", error)
                .then();
    }

    /** The e-mail ends unsent: {@link NotificationStatus#FAILED} or {@link NotificationStatus#GIVEN_UP}. */
    public Mono<Void> end(UUID id, NotificationStatus status, String error) {
        return database.sql("UPDATE notification SET status = :status, last_error = :error "
                        + "WHERE id = :id AND status = 'pending'")
                .bind("id", id)
                .bind("status", status.wireName())
                .bind("error", error)
                .then();
    }
}
