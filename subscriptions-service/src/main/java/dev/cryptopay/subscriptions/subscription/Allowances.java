package dev.cryptopay.subscriptions.subscription;

import dev.cryptopay.service.error.ApiException;
import dev.cryptopay.subscriptions.config.SubscriptionsProperties;
import dev.cryptopay.subscriptions.plan.Addresses;
import java.math.BigInteger;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.stereotype.Component;
import org.springframework.web.reactive.function.client.WebClient;
import org.web3j.abi.FunctionEncoder;
import org.web3j.abi.datatypes.Address;
import org.web3j.abi.datatypes.Function;
import org.web3j.utils.Numeric;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Reads an ERC-20 allowance from the chain's JSON-RPC node ({@code subscriptions.rpc-urls}): the enrolment kit adds
 * the wallet's current allowance for the contract to the periods it approves, so that other subscriptions of the same
 * wallet in the same token keep theirs. One {@code eth_call} of {@code allowance(owner, spender)} at the latest block.
 */
@Component
class Allowances {

    private static final Duration TIMEOUT = Duration.ofSeconds(5);

    private final SubscriptionsProperties properties;
    private final WebClient http;
    private final JsonMapper json;

    Allowances(SubscriptionsProperties properties, JsonMapper json) {
        this.properties = properties;
        this.http = WebClient.create();
        this.json = json;
    }

    /**
     * {@code owner}'s allowance of {@code token} for {@code spender}: empty when no node is configured for the chain;
     * 0 for the zero address (a kit made for no wallet yet); a 503 {@code chain_unavailable} when the node does not
     * answer.
     */
    Mono<Optional<BigInteger>> of(long chainId, String token, String owner, String spender) {
        if (Addresses.same(owner, Addresses.ZERO)) {
            return Mono.just(Optional.of(BigInteger.ZERO));
        }
        Optional<String> node = properties.rpcUrl(chainId);
        if (node.isEmpty()) {
            return Mono.just(Optional.empty());
        }
        String data = FunctionEncoder.encode(
                new Function("allowance", List.of(new Address(owner), new Address(spender)), List.of()));
        Map<String, Object> call = Map.of(
                "jsonrpc",
                "2.0",
                "id",
                1,
                "method",
                "eth_call",
                "params",
                List.of(Map.of("to", token, "data", data), "latest"));
        return http.post()
                .uri(node.get())
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(json.writeValueAsString(call))
                .retrieve()
                .bodyToMono(String.class)
                .timeout(TIMEOUT)
                .map(text -> Optional.of(allowance(json.readTree(text))))
                .onErrorMap(
                        failure -> !(failure instanceof ApiException),
                        failure -> new ApiException(
                                HttpStatus.SERVICE_UNAVAILABLE,
                                "chain_unavailable",
                                "The wallet's current allowance on chain " + chainId
                                        + " cannot be read right now; try again shortly"));
    }

    private static BigInteger allowance(JsonNode answer) {
        JsonNode result = answer.get("result");
        if (result == null || !result.isString()) {
            throw new IllegalStateException("eth_call answered no result: " + answer.get("error"));
        }
        String hex = result.asString();
        return hex.length() <= 2 ? BigInteger.ZERO : Numeric.toBigInt(hex);
    }
}
