package dev.cryptopay.checkoutui;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Block explorers by chain id, for the links a receipt shows next to a transaction. The public explorers of the main
 * networks the suite knows are built in; a service's settings add or replace entries (a hosted sandbox's test network)
 * and a blank entry removes one. Chains without an explorer (the local dev chain) show the hash without a link.
 */
public final class Explorers {

    /** Each network's explorer, as {@code https://host}: a transaction is at {@code <base>/tx/<hash>}. */
    public static final Map<Long, String> BUILT_IN = Map.ofEntries(
            Map.entry(1L, "https://etherscan.io"),
            Map.entry(10L, "https://optimistic.etherscan.io"),
            Map.entry(56L, "https://bscscan.com"),
            Map.entry(137L, "https://polygonscan.com"),
            Map.entry(204L, "https://opbnb.bscscan.com"),
            Map.entry(8453L, "https://basescan.org"),
            Map.entry(42161L, "https://arbiscan.io"),
            Map.entry(43114L, "https://snowtrace.io"),
            Map.entry(59144L, "https://lineascan.build"),
            Map.entry(11155111L, "https://sepolia.etherscan.io"));

    private final Map<Long, String> bases;

    private Explorers(Map<Long, String> bases) {
        this.bases = Map.copyOf(bases);
    }

    /**
     * The built-in explorers with {@code settings} over them.
     *
     * @param settings chain id → explorer base (http(s)); blank removes the chain's explorer
     * @throws IllegalArgumentException when a base is not an absolute http(s) URL
     */
    public static Explorers of(Map<Long, String> settings) {
        Map<Long, String> bases = new HashMap<>(BUILT_IN);
        settings.forEach((chainId, base) -> {
            if (base == null || base.isBlank()) {
                bases.remove(chainId);
            } else if (Html.httpUrl(base.strip()) == null) {
                throw new IllegalArgumentException(
                        "The explorer of chain " + chainId + " must be an absolute http(s) URL, not " + base);
            } else {
                String trimmed = base.strip();
                bases.put(chainId, trimmed.endsWith("/") ? trimmed.substring(0, trimmed.length() - 1) : trimmed);
            }
        });
        return new Explorers(bases);
    }

    /** The explorer's page of a transaction on that chain, when the chain has an explorer and the hash is one. */
    public Optional<String> transaction(long chainId, String hash) {
        String base = bases.get(chainId);
        if (base == null || hash == null || !hash.matches("0x[0-9a-fA-F]{64}")) {
            return Optional.empty();
        }
        return Optional.of(base + "/tx/" + hash);
    }
}
