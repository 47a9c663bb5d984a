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

    /** What {@link #assetName} answers for a native coin the catalogue does not list on that network. */
    public static final String UNLISTED_NATIVE_COIN = "native";
    /** The decimals of every EVM network's native coin (wei per coin as a power of ten). */
    public static final int NATIVE_DECIMALS = 18;

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
        return Optional.of(new PaymentNetwork(
                testNetwork.name(), testNetwork.chainId(), blankToNull(token.contract()), token.decimals()));
    }

    /**
     * How a merchant reads an asset that arrived on {@code network}: the code of the currency whose token is
     * {@code tokenContract} there (compared without regard to case; null is the network's native coin), from the
     * test network's tokens when {@code network} is the test network and from the reference data otherwise. When the
     * catalogue does not know it: the contract itself, or {@value #UNLISTED_NATIVE_COIN} for a native coin.
     */
    public Mono<String> assetName(String network, String tokenContract) {
        if (network.equals(testNetwork.name())) {
            return Mono.just(testNetwork.tokens().entrySet().stream()
                    .filter(token -> sameContract(blankToNull(token.getValue().contract()), tokenContract))
                    .map(Map.Entry::getKey)
                    .sorted()
                    .findFirst()
                    .orElseGet(() -> unlisted(tokenContract)));
        }
        return byCode.map(currencies -> currencies.values().stream()
                .filter(currency -> currency.networks().stream()
                        .anyMatch(on -> on.name().equals(network)
                                && on.payable()
                                && sameContract(on.tokenContract(), tokenContract)))
                .map(Currency::code)
                .sorted()
                .findFirst()
                .orElseGet(() -> unlisted(tokenContract)));
    }

    /**
     * The decimals of the asset {@code tokenContract} (null: the native coin) on {@code network}, as {@link #assetName}
     * finds it: from the test network's tokens or the reference data. Empty for a token the catalogue does not know;
     * a native coin it does not list has {@value #NATIVE_DECIMALS}, as every EVM network's coin.
     */
    public Mono<Optional<Integer>> decimals(String network, String tokenContract) {
        Mono<Optional<Integer>> listed = network.equals(testNetwork.name())
                ? Mono.just(testNetwork.tokens().values().stream()
                        .filter(token -> sameContract(blankToNull(token.contract()), tokenContract))
                        .map(PaymentLinksProperties.TestToken::decimals)
                        .findFirst())
                : byCode.map(currencies -> currencies.values().stream()
                        .flatMap(currency -> currency.networks().stream())
                        .filter(on -> on.name().equals(network)
                                && on.payable()
                                && sameContract(on.tokenContract(), tokenContract))
                        .map(PaymentNetwork::decimals)
                        .findFirst());
        return listed.map(found -> found.isEmpty() && tokenContract == null ? Optional.of(NATIVE_DECIMALS) : found);
    }

    private static boolean sameContract(String listed, String arrived) {
        return listed == null ? arrived == null : listed.equalsIgnoreCase(arrived);
    }

    private static String blankToNull(String contract) {
        return contract == null || contract.isBlank() ? null : contract;
    }

    private static String unlisted(String tokenContract) {
        return tokenContract == null ? UNLISTED_NATIVE_COIN : tokenContract;
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
