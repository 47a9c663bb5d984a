package dev.cryptopay.notifications.notification;

import static dev.cryptopay.service.db.SqlValues.utc;

import dev.cryptopay.auth.Mode;
import dev.cryptopay.auth.internal.MerchantIdentity;
import dev.cryptopay.notifications.email.Email;
import dev.cryptopay.service.db.SqlValues;
import dev.cryptopay.service.request.Where;
import io.r2dbc.spi.Readable;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Map;
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
                .concatMap(notification -> SqlValues.bind(
                                database.sql(
                                                "INSERT INTO notification (id, event_id, event_type, template, merchant_id, "
                                                        + "mode, recipient, sender_name, reply_to, subject, html_body, text_body, "
                                                        + "status, next_attempt_at, created_at) VALUES (:id, :event, :type, "
                                                        + ":template, :merchant, :mode, :recipient, :sender, :replyTo, :subject, "
                                                        + ":html, :text, 'pending', :now, :now) "
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
                                        .bind("now", utc(now)),
                                "replyTo",
                                notification.email().replyTo(),
                                String.class)
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

    /** The log's filters: each null when not asked for. */
    public record LogFilter(String status, String template, String recipient, Instant from, Instant to) {}

    private static final String LOG_COLUMNS =
            "id, event_id, event_type, template, recipient, subject, status, attempts, "
                    + "last_error, next_attempt_at, sent_at, created_at, mode";

    /** How many of the merchant's e-mails (in its mode) match. */
    public Mono<Long> count(MerchantIdentity merchant, LogFilter filter) {
        Where where = where(merchant, filter);
        return where.bind(database.sql("SELECT count(*) FROM notification WHERE " + where.clause()))
                .map(row -> row.get(0, Long.class))
                .one();
    }

    /** One page of the merchant's e-mails (in its mode), newest first. */
    public Flux<EmailResponse> page(MerchantIdentity merchant, LogFilter filter, int limit, long offset) {
        Where where = where(merchant, filter);
        return where.bind(database.sql("SELECT " + LOG_COLUMNS + " FROM notification WHERE " + where.clause()
                        + " ORDER BY created_at DESC, id LIMIT :limit OFFSET :offset"))
                .bind("limit", limit)
                .bind("offset", offset)
                .map(row -> logEntry(row, null))
                .all();
    }

    /** One of the merchant's e-mails (in its mode) with its text part; empty when it is not theirs. */
    public Mono<EmailResponse> find(MerchantIdentity merchant, UUID id) {
        return database.sql("SELECT " + LOG_COLUMNS + ", text_body FROM notification WHERE id = :id AND "
                        + "merchant_id = :merchant AND mode = :mode")
                .bind("id", id)
                .bind("merchant", merchant.merchantId())
                .bind("mode", merchant.mode().wireName())
                .map(row -> logEntry(row, row.get("text_body", String.class)))
                .one();
    }

    private static Where where(MerchantIdentity merchant, LogFilter filter) {
        Where where = Where.merchant(merchant, "")
                .equal("status", "status", filter.status())
                .equal("template", "template", filter.template())
                .between("created_at", filter.from(), filter.to());
        if (filter.recipient() != null) {
            where.and("lower(recipient) = lower(:recipient)", Map.of("recipient", filter.recipient()));
        }
        return where;
    }

    private static EmailResponse logEntry(Readable row, String text) {
        String status = row.get("status", String.class);
        return new EmailResponse(
                row.get("id", UUID.class),
                row.get("event_id", UUID.class),
                row.get("event_type", String.class),
                row.get("template", String.class),
                row.get("recipient", String.class),
                row.get("subject", String.class),
                status,
                row.get("attempts", Integer.class),
                row.get("last_error", String.class),
                NotificationStatus.PENDING.wireName().equals(status)
                        ? SqlValues.instant(row.get("next_attempt_at", OffsetDateTime.class))
                        : null,
                SqlValues.instant(row.get("sent_at", OffsetDateTime.class)),
                SqlValues.instant(row.get("created_at", OffsetDateTime.class)),
                Mode.LIVE.wireName().equals(row.get("mode", String.class)),
                text);
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
