package dev.cryptopay.paymentlinks.currency;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;

/**
 * The supported currencies, read once from the database (they change only by migration) and then served from
 * memory, so validating a link's currency costs no query.
 */
@Component
public class CurrencyCatalog {

    private final Mono<Map<String, Currency>> byCode;

    public CurrencyCatalog(DatabaseClient database) {
        this.byCode = database.sql("""
                        SELECT c.id, c.code, c.name, n.network
                        FROM currency c JOIN currency_network n ON n.currency_code = c.code
                        ORDER BY c.code, n.priority""")
                .map(row -> new Object[] {
                    row.get("id", UUID.class),
                    row.get("code", String.class),
                    row.get("name", String.class),
                    row.get("network", String.class)
                })
                .all()
                .collectList()
                .map(CurrencyCatalog::group)
                .cache();
    }

    private static Map<String, Currency> group(List<Object[]> rows) {
        Map<String, List<String>> networks = new LinkedHashMap<>();
        Map<String, Object[]> first = new LinkedHashMap<>();
        for (Object[] row : rows) {
            String code = (String) row[1];
            first.putIfAbsent(code, row);
            networks.computeIfAbsent(code, c -> new ArrayList<>()).add((String) row[3]);
        }
        Map<String, Currency> result = new LinkedHashMap<>();
        first.forEach((code, row) ->
                result.put(code, new Currency((UUID) row[0], code, (String) row[2], List.copyOf(networks.get(code)))));
        return Map.copyOf(result);
    }

    public Mono<Collection<Currency>> all() {
        return byCode.map(map -> map.values().stream()
                .sorted(Comparator.comparing(Currency::code))
                .toList());
    }

    public Mono<Optional<Currency>> find(String code) {
        return byCode.map(map -> Optional.ofNullable(map.get(code)));
    }
}
