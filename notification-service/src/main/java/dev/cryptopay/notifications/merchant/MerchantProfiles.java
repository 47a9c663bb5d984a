package dev.cryptopay.notifications.merchant;

import static dev.cryptopay.service.db.SqlValues.utc;

import java.time.Instant;
import java.util.Collection;
import java.util.Map;
import java.util.UUID;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.stereotype.Repository;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/** The {@code merchant_profile} table: each merchant's display name as the latest event that carried one named it. */
@Repository
public class MerchantProfiles {

    private final DatabaseClient database;

    public MerchantProfiles(DatabaseClient database) {
        this.database = database;
    }

    /** Keeps these names (merchant → name), replacing older ones. */
    public Mono<Void> remember(Map<UUID, String> names, Instant now) {
        return Flux.fromIterable(names.entrySet())
                .concatMap(name -> database.sql("INSERT INTO merchant_profile (merchant_id, display_name, updated_at) "
                                + "VALUES (:merchant, :name, :now) ON CONFLICT (merchant_id) DO UPDATE SET "
                                + "display_name = EXCLUDED.display_name, updated_at = EXCLUDED.updated_at "
                                + "WHERE merchant_profile.display_name <> EXCLUDED.display_name")
                        .bind("merchant", name.getKey())
                        .bind("name", name.getValue())
                        .bind("now", utc(now))
                        .then())
                .then();
    }

    /** The display names kept for these merchants (a merchant without one is absent from the map). */
    public Mono<Map<UUID, String>> namesOf(Collection<UUID> merchants) {
        if (merchants.isEmpty()) {
            return Mono.just(Map.of());
        }
        return database.sql("SELECT merchant_id, display_name FROM merchant_profile WHERE merchant_id = ANY(:ids)")
                .bind("ids", merchants.toArray(UUID[]::new))
                .map(row -> Map.entry(row.get("merchant_id", UUID.class), row.get("display_name", String.class)))
                .all()
                .collectMap(Map.Entry::getKey, Map.Entry::getValue);
    }
}
