package dev.cryptopay.paymentlinks.deposit;

import dev.cryptopay.auth.internal.MerchantIdentity;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.OffsetDateTime;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.stereotype.Repository;
import reactor.core.publisher.Mono;

/** Stores deposit settings, one row per merchant and mode. */
@Repository
public class DepositSettingsRepository {

    private final DatabaseClient database;

    DepositSettingsRepository(DatabaseClient database) {
        this.database = database;
    }

    /** The merchant's settings in its mode, or the defaults when it set none. */
    public Mono<DepositSettings> of(MerchantIdentity merchant) {
        return database.sql("SELECT webhook_minimum_usd, updated_at FROM deposit_settings"
                        + " WHERE merchant_id = :merchant AND mode = :mode")
                .bind("merchant", merchant.merchantId())
                .bind("mode", merchant.mode().wireName())
                .map(row -> new DepositSettings(
                        row.get("webhook_minimum_usd", BigDecimal.class),
                        row.get("updated_at", OffsetDateTime.class).toInstant()))
                .one()
                .defaultIfEmpty(DepositSettings.DEFAULTS);
    }

    Mono<DepositSettings> save(MerchantIdentity merchant, BigDecimal webhookMinimumUsd, Instant now) {
        return database.sql("INSERT INTO deposit_settings (merchant_id, mode, webhook_minimum_usd, updated_at)"
                        + " VALUES (:merchant, :mode, :minimum, :now) ON CONFLICT (merchant_id, mode)"
                        + " DO UPDATE SET webhook_minimum_usd = EXCLUDED.webhook_minimum_usd,"
                        + " updated_at = EXCLUDED.updated_at")
                .bind("merchant", merchant.merchantId())
                .bind("mode", merchant.mode().wireName())
                .bind("minimum", webhookMinimumUsd)
                .bind("now", now.atOffset(java.time.ZoneOffset.UTC))
                .then()
                .then(of(merchant));
    }
}
