package dev.cryptopay.subscriptions.network;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Function;
import java.util.stream.Collectors;

/** The networks and tokens plans are built on, looked up in memory. */
public final class ReferenceData {

    private final Map<UUID, Network> networks;
    private final List<Token> tokens;
    private final Map<UUID, Token> tokensById;

    public ReferenceData(List<Network> networks, List<Token> tokens) {
        this.networks = networks.stream().collect(Collectors.toMap(Network::id, Function.identity()));
        this.tokens = List.copyOf(tokens);
        this.tokensById = tokens.stream().collect(Collectors.toMap(Token::id, Function.identity()));
    }

    public Optional<Network> network(UUID id) {
        return Optional.ofNullable(networks.get(id));
    }

    public Optional<Network> networkByChainId(long chainId) {
        return networks.values().stream().filter(n -> n.chainId() == chainId).findFirst();
    }

    public Optional<Token> token(UUID id) {
        return Optional.ofNullable(tokensById.get(id));
    }

    /** The token at this contract address on the network, the address compared case-insensitively. */
    public Optional<Token> token(UUID networkId, String contractAddress) {
        String address = contractAddress.toLowerCase(Locale.ROOT);
        return tokens.stream()
                .filter(t -> t.networkId().equals(networkId)
                        && t.contractAddress().toLowerCase(Locale.ROOT).equals(address))
                .findFirst();
    }

    /** The token of this currency code on the network. */
    public Optional<Token> tokenOfCurrency(UUID networkId, String currencyCode) {
        return tokens.stream()
                .filter(t -> t.networkId().equals(networkId) && t.currencyCode().equals(currencyCode))
                .findFirst();
    }

    /** The currency codes with a token on the network, sorted, for messages. */
    public List<String> currencyCodes(UUID networkId) {
        return tokens.stream()
                .filter(t -> t.networkId().equals(networkId))
                .map(Token::currencyCode)
                .sorted()
                .toList();
    }
}
