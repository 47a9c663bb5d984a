package dev.cryptopay.notifications.settings;

import static dev.cryptopay.service.db.SqlValues.utc;

import dev.cryptopay.auth.Mode;
import dev.cryptopay.auth.internal.MerchantIdentity;
import dev.cryptopay.notifications.email.EmailTemplate;
import dev.cryptopay.service.db.SqlValues;
import io.r2dbc.spi.Readable;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.Arrays;
import java.util.Collection;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.r2dbc.core.DatabaseClient.GenericExecuteSpec;
import org.springframework.stereotype.Repository;
import reactor.core.publisher.Mono;

/** The {@code notification_settings} table. */
@Repository
public class SettingsRepository {

    private final DatabaseClient database;

    public SettingsRepository(DatabaseClient database) {
        this.database = database;
    }

    /** The merchant's settings in its mode; {@link NotificationSettings#DEFAULT} when it never changed them. */
    public Mono<NotificationSettings> find(MerchantIdentity merchant) {
        return database.sql(
                        "SELECT display_name, support_email, disabled_emails, updated_at FROM notification_settings "
                                + "WHERE merchant_id = :merchant AND mode = :mode")
                .bind("merchant", merchant.merchantId())
                .bind("mode", merchant.mode().wireName())
                .map(SettingsRepository::settings)
                .one()
                .defaultIfEmpty(NotificationSettings.DEFAULT);
    }

    /** The settings of these merchants and modes; one without any is absent from the map. */
    public Mono<Map<MerchantIdentity, NotificationSettings>> findAll(Collection<MerchantIdentity> merchants) {
        if (merchants.isEmpty()) {
            return Mono.just(Map.of());
        }
        return database.sql("SELECT merchant_id, mode, display_name, support_email, disabled_emails, updated_at "
                        + "FROM notification_settings WHERE merchant_id = ANY(:merchants)")
                .bind(
                        "merchants",
                        merchants.stream()
                                .map(MerchantIdentity::merchantId)
                                .distinct()
                                .toArray(UUID[]::new))
                .map(row -> Map.entry(
                        new MerchantIdentity(
                                row.get("merchant_id", UUID.class), Mode.fromWireName(row.get("mode", String.class))),
                        settings(row)))
                .all()
                .filter(entry -> merchants.contains(entry.getKey()))
                .collectMap(Map.Entry::getKey, Map.Entry::getValue);
    }

    /**
     * Holds the merchant's settings row for its mode until the transaction ends (making it first, with the defaults,
     * when there is none), so a read-modify-write of two updates at once is one after the other.
     */
    public Mono<Void> lock(MerchantIdentity merchant) {
        return database.sql("INSERT INTO notification_settings (merchant_id, mode, updated_at) VALUES "
                        + "(:merchant, :mode, now()) ON CONFLICT (merchant_id, mode) DO UPDATE SET "
                        + "updated_at = notification_settings.updated_at")
                .bind("merchant", merchant.merchantId())
                .bind("mode", merchant.mode().wireName())
                .then();
    }

    /** Stores the merchant's settings for its mode. */
    public Mono<Void> save(MerchantIdentity merchant, NotificationSettings settings, Instant now) {
        GenericExecuteSpec insert = database.sql("INSERT INTO notification_settings (merchant_id, mode, display_name, "
                        + "support_email, disabled_emails, updated_at) VALUES (:merchant, :mode, :name, :support, "
                        + ":disabled, :now) ON CONFLICT (merchant_id, mode) DO UPDATE SET "
                        + "display_name = EXCLUDED.display_name, support_email = EXCLUDED.support_email, "
                        + "disabled_emails = EXCLUDED.disabled_emails, updated_at = EXCLUDED.updated_at")
                .bind("merchant", merchant.merchantId())
                .bind("mode", merchant.mode().wireName())
                .bind(
                        "disabled",
                        settings.disabled().stream()
                                .map(EmailTemplate::wireName)
                                .toArray(String[]::new))
                .bind("now", utc(now));
        insert = SqlValues.bind(insert, "name", settings.displayName(), String.class);
        return SqlValues.bind(insert, "support", settings.supportEmail(), String.class)
                .then();
    }

    private static NotificationSettings settings(Readable row) {
        Set<EmailTemplate> disabled = Arrays.stream(row.get("disabled_emails", String[].class))
                .map(EmailTemplate::fromWireName)
                .flatMap(Optional::stream)
                .collect(Collectors.toSet());
        return new NotificationSettings(
                row.get("display_name", String.class),
                row.get("support_email", String.class),
                disabled,
                SqlValues.instant(row.get("updated_at", OffsetDateTime.class)));
    }
}
