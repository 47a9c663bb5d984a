package dev.cryptopay.subscriptions.merchant;

import static dev.cryptopay.service.db.SqlValues.utc;

import dev.cryptopay.auth.internal.MerchantIdentity;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.stereotype.Repository;
import reactor.core.publisher.Mono;

/**
 * Merchants' display names, kept from the gateway's {@code X-Merchant-Name} header (percent-encoded UTF-8) when a
 * merchant creates a plan or invites a customer, and shown on the customer's subscribe page. A missing, malformed or
 * unsaved name never fails the merchant's request: the page then names the merchant by its wallet alone.
 */
@Repository
public class MerchantNames {

    private static final Logger log = LoggerFactory.getLogger(MerchantNames.class);
    static final int MAX_LENGTH = 200;

    private final DatabaseClient database;
    private final Clock clock;

    public MerchantNames(DatabaseClient database, Clock clock) {
        this.database = database;
        this.clock = clock;
    }

    /** Keeps the merchant's name from the header's value (null: nothing to keep); completes empty, never in error. */
    public Mono<Void> remember(MerchantIdentity merchant, String header) {
        String name = decode(header);
        if (merchant == null || name == null) {
            return Mono.empty();
        }
        return database.sql("INSERT INTO merchant_name (merchant_id, name, updated_at) VALUES (:merchant, :name, :now) "
                        + "ON CONFLICT (merchant_id) DO UPDATE SET name = EXCLUDED.name, updated_at = EXCLUDED.updated_at "
                        + "WHERE merchant_name.name <> EXCLUDED.name")
                .bind("merchant", merchant.merchantId())
                .bind("name", name)
                .bind("now", utc(clock.instant()))
                .then()
                .onErrorResume(failure -> {
                    log.warn("Could not keep the name of merchant {}: {}", merchant.merchantId(), failure.toString());
                    return Mono.empty();
                });
    }

    /** The merchant's display name; empty when the gateway never forwarded one. */
    public Mono<String> of(UUID merchantId) {
        return database.sql("SELECT name FROM merchant_name WHERE merchant_id = :merchant")
                .bind("merchant", merchantId)
                .map(row -> row.get("name", String.class))
                .one();
    }

    /** The header decoded, without control characters and trimmed; null when absent, malformed, empty or too long. */
    static String decode(String header) {
        if (header == null || header.isBlank()) {
            return null;
        }
        try {
            String name = URLDecoder.decode(header, StandardCharsets.UTF_8)
                    .replaceAll("\\p{Cntrl}", "")
                    .strip();
            return name.isEmpty() || name.length() > MAX_LENGTH ? null : name;
        } catch (IllegalArgumentException malformed) {
            return null;
        }
    }
}
