package dev.cryptopay.paymentlinks.currency;

import dev.cryptopay.auth.Mode;
import dev.cryptopay.paymentlinks.config.PaymentLinksProperties;
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
 * memory, so validating a link's currency costs no query. Test-mode networks come from configuration.
 */
@Component
public class CurrencyCatalog {

    private final Mono<Map<String, Currency>> byCode;
    private final PaymentLinksProperties.TestNetwork testNetwork;

    public CurrencyCatalog(DatabaseClient database, PaymentLinksProperties properties) {
        this.testNetwork = properties.testNetwork();
        this.byCode = database.sql("""
                        SELECT c.id, c.code, c.name, n.network, n.chain_id, n.token_contract, n.decimals
                        FROM currency c JOIN currency_network n ON n.currency_code = c.code
                        ORDER BY c.code, n.priority""")
                .map(row -> new Row(
                        row.get("id", UUID.class),
                        row.get("code", String.class),
                        row.get("name", String.class),
                        new PaymentNetwork(
                                row.get("network", String.class),
                                row.get("chain_id", Long.class),
                                row.get("token_contract", String.class),
                                row.get("decimals", Integer.class))))
                .all()
                .collectList()
                .map(CurrencyCatalog::group)
                .cache();
    }

    private record Row(UUID id, String code, String name, PaymentNetwork network) {}

    private static Map<String, Currency> group(List<Row> rows) {
        Map<String, List<PaymentNetwork>> networks = new LinkedHashMap<>();
        Map<String, Row> first = new LinkedHashMap<>();
        for (Row row : rows) {
            first.putIfAbsent(row.code(), row);
            networks.computeIfAbsent(row.code(), code -> new ArrayList<>()).add(row.network());
        }
        Map<String, Currency> result = new LinkedHashMap<>();
        first.forEach((code, row) ->
                result.put(code, new Currency(row.id(), code, row.name(), List.copyOf(networks.get(code)))));
        return Map.copyOf(result);
    }

    /**
     * Where a new link in this currency is paid: live mode on the currency's preferred network, test mode on the
     * configured test network. Empty when the test network has no token for the currency.
     */
    public Optional<PaymentNetwork> networkFor(Mode mode, Currency currency) {
        if (mode == Mode.LIVE) {
            return Optional.of(currency.defaultNetwork());
        }
        PaymentLinksProperties.TestToken token = testNetwork.tokens().get(currency.code());
        if (token == null) {
            return Optional.empty();
        }
        String contract = token.contract() == null || token.contract().isBlank() ? null : token.contract();
        return Optional.of(new PaymentNetwork(testNetwork.name(), testNetwork.chainId(), contract, token.decimals()));
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
