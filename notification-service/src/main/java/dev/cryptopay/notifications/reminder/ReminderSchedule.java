package dev.cryptopay.notifications.reminder;

import static dev.cryptopay.service.db.SqlValues.utc;

import dev.cryptopay.notifications.config.NotificationProperties;
import dev.cryptopay.notifications.email.Notice;
import dev.cryptopay.service.db.SqlValues;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.UUID;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.stereotype.Repository;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;

/** The {@code payment_reminder} table: the next reminder of each subscription link. */
@Repository
public class ReminderSchedule {

    private final DatabaseClient database;
    private final Duration lead;

    public ReminderSchedule(DatabaseClient database, NotificationProperties properties) {
        this.database = database;
        this.lead = properties.reminders().lead();
    }

    /** An event read, with its envelope as it came (kept as the reminder's facts). */
    public record Announced(Notice notice, String envelope) {}

    /** A claimed reminder. */
    public record Due(UUID linkId, Instant dueAt, String envelope) {}

    /**
     * Moves the reminders these events announce, in order: an event about a subscription link with
     * {@code notify.next_payment} sets the link's reminder for that payment (a new due time makes it unsent again);
     * one without removes it (the subscription stopped, or its next pull is unknown).
     */
    public Mono<Void> follow(List<Announced> events, Instant now) {
        return Flux.fromIterable(events)
                .concatMap(event -> {
                    UUID link = linkId(event.notice());
                    if (link == null) {
                        return Mono.empty();
                    }
                    Instant dueAt = dueAt(event.notice());
                    return dueAt == null ? remove(link) : set(link, event, dueAt, now);
                })
                .then();
    }

    private Mono<Void> set(UUID link, Announced event, Instant dueAt, Instant now) {
        return database.sql("INSERT INTO payment_reminder (subscription_link_id, merchant_id, mode, due_at, remind_at, "
                        + "envelope, reminded, updated_at) VALUES (:link, :merchant, :mode, :due, :remind, :envelope, "
                        + "false, :now) ON CONFLICT (subscription_link_id) DO UPDATE SET due_at = EXCLUDED.due_at, "
                        + "remind_at = EXCLUDED.remind_at, envelope = EXCLUDED.envelope, updated_at = EXCLUDED.updated_at, "
                        + "reminded = payment_reminder.reminded AND payment_reminder.due_at = EXCLUDED.due_at")
                .bind("link", link)
                .bind("merchant", event.notice().merchantId())
                .bind("mode", event.notice().mode().wireName())
                .bind("due", utc(dueAt))
                .bind("remind", utc(dueAt.minus(lead)))
                .bind("envelope", event.envelope())
                .bind("now", utc(now))
                .then();
    }

    private Mono<Void> remove(UUID link) {
        return database.sql("DELETE FROM payment_reminder WHERE subscription_link_id = :link")
                .bind("link", link)
                .then();
    }

    /**
     * Claims up to {@code limit} reminders whose moment came and whose payment is still ahead: each is not due again
     * until {@code leaseEnd}, so another instance takes it only once the lease ran out.
     */
    public Flux<Due> claim(Instant now, int limit, Instant leaseEnd) {
        return database.sql("UPDATE payment_reminder SET remind_at = :lease WHERE subscription_link_id IN ("
                        + "SELECT subscription_link_id FROM payment_reminder WHERE NOT reminded AND remind_at <= :now "
                        + "AND due_at > :now ORDER BY remind_at LIMIT :limit FOR UPDATE SKIP LOCKED) "
                        + "RETURNING subscription_link_id, due_at, envelope")
                .bind("now", utc(now))
                .bind("limit", limit)
                .bind("lease", utc(leaseEnd))
                .map(row -> new Due(
                        row.get("subscription_link_id", UUID.class),
                        SqlValues.instant(row.get("due_at", OffsetDateTime.class)),
                        row.get("envelope", String.class)))
                .all();
    }

    /** The reminder of that payment went out (a later event for the same due time leaves it so). */
    public Mono<Void> reminded(UUID link, Instant dueAt) {
        return database.sql("UPDATE payment_reminder SET reminded = true WHERE subscription_link_id = :link "
                        + "AND due_at = :due")
                .bind("link", link)
                .bind("due", utc(dueAt))
                .then();
    }

    private static UUID linkId(Notice notice) {
        String id = notice.dataText("subscription_link_id");
        if (id == null) {
            return null;
        }
        try {
            return UUID.fromString(id);
        } catch (IllegalArgumentException notAnId) {
            return null;
        }
    }

    /** When {@code notify.next_payment} says the next pull falls due; null when there is none. */
    static Instant dueAt(Notice notice) {
        JsonNode at = notice.notifyTo().path("next_payment").path("at");
        if (!at.isString()) {
            return null;
        }
        try {
            return OffsetDateTime.parse(at.asString()).toInstant();
        } catch (DateTimeParseException malformed) {
            return null;
        }
    }
}
