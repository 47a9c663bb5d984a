package dev.cryptopay.subscriptions.network;

import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.UUID;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;

/**
 * Reads the networks and tokens of the reference data. They change only with a migration, so they are read once
 * (on first use) and answered from memory afterwards.
 */
@Component
public class NetworkCatalog {

    private final Mono<ReferenceData> referenceData;

    public NetworkCatalog(DatabaseClient database) {
        Mono<List<Network>> networks = database.sql(
                        "SELECT id, name, chain_id, symbol, is_testnet, is_active, created_at, updated_at FROM network")
                .map(row -> new Network(
                        row.get("id", UUID.class),
                        row.get("name", String.class),
                        row.get("chain_id", Long.class),
                        row.get("symbol", String.class),
                        row.get("is_testnet", Boolean.class),
                        row.get("is_active", Boolean.class),
                        row.get("created_at", OffsetDateTime.class).toInstant(),
                        row.get("updated_at", OffsetDateTime.class).toInstant()))
                .all()
                .collectList();
        Mono<List<Token>> tokens = database.sql("""
                        SELECT t.id, t.network_id, c.id AS currency_id, t.currency_code, t.contract_address, t.decimals
                        FROM token t JOIN currency c ON c.code = t.currency_code""")
                .map(row -> new Token(
                        row.get("id", UUID.class),
                        row.get("network_id", UUID.class),
                        row.get("currency_id", UUID.class),
                        row.get("currency_code", String.class),
                        row.get("contract_address", String.class),
                        row.get("decimals", Integer.class)))
                .all()
                .collectList();
        // A failed read is not cached: the next call tries again.
        this.referenceData = Mono.zip(networks, tokens, ReferenceData::new)
                .cache(loaded -> Duration.ofMillis(Long.MAX_VALUE), failed -> Duration.ZERO, () -> Duration.ZERO);
    }

    public Mono<ReferenceData> referenceData() {
        return referenceData;
    }
}
