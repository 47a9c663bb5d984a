package dev.cryptopay.notifications.reminder;

import dev.cryptopay.notifications.config.NotificationProperties;
import java.math.BigInteger;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.stereotype.Component;
import org.web3j.abi.FunctionEncoder;
import org.web3j.abi.FunctionReturnDecoder;
import org.web3j.abi.TypeReference;
import org.web3j.abi.datatypes.Address;
import org.web3j.abi.datatypes.Function;
import org.web3j.abi.datatypes.Type;
import org.web3j.abi.datatypes.generated.Uint256;
import org.web3j.protocol.Web3j;
import org.web3j.protocol.core.DefaultBlockParameterName;
import org.web3j.protocol.core.methods.request.Transaction;
import org.web3j.protocol.http.HttpService;
import reactor.core.publisher.Mono;

/**
 * What the chain shows of a wallet before a pull: its balance of the token ({@code balanceOf}) and what it allows the
 * subscription contract to take ({@code allowance}), read with {@code eth_call} at the latest block on the chain's
 * configured JSON-RPC address ({@code notifications.chains.<id>}).
 */
@Component
public class ChainBalances implements DisposableBean {

    /** Balance and allowance, in the token's base units. */
    public record Holding(BigInteger balance, BigInteger allowance) {

        /** Whether both cover {@code amount}. */
        public boolean covers(BigInteger amount) {
            return balance.compareTo(amount) >= 0 && allowance.compareTo(amount) >= 0;
        }
    }

    private final Map<Long, String> urls;
    private final Map<Long, Web3j> clients = new ConcurrentHashMap<>();

    public ChainBalances(NotificationProperties properties) {
        this.urls = properties.chains();
    }

    /** Whether this service can read the chain at all. */
    public boolean reads(long chainId) {
        String url = urls.get(chainId);
        return url != null && !url.isBlank();
    }

    /**
     * The wallet's holding on a chain this service reads; empty for a chain it does not. Fails when the node does not
     * answer or answers something that is not a number.
     */
    public Mono<Optional<Holding>> holding(long chainId, String token, String wallet, String spender) {
        if (!reads(chainId)) {
            return Mono.just(Optional.empty());
        }
        Web3j web3j = clients.computeIfAbsent(chainId, id -> Web3j.build(new HttpService(urls.get(id))));
        return call(web3j, token, uint("balanceOf", new Address(wallet)))
                .zipWith(call(web3j, token, uint("allowance", new Address(wallet), new Address(spender))))
                .map(read -> Optional.of(new Holding(read.getT1(), read.getT2())));
    }

    /** A view function of these arguments that answers one uint256. */
    @SuppressWarnings("rawtypes")
    private static Function uint(String name, Type... arguments) {
        return new Function(name, List.<Type>of(arguments), List.<TypeReference<?>>of(new TypeReference<Uint256>() {}));
    }

    @SuppressWarnings("rawtypes")
    private static Mono<BigInteger> call(Web3j web3j, String contract, Function function) {
        Transaction call = Transaction.createEthCallTransaction(null, contract, FunctionEncoder.encode(function));
        return Mono.fromFuture(() ->
                        web3j.ethCall(call, DefaultBlockParameterName.LATEST).sendAsync())
                .map(answer -> {
                    if (answer.hasError()) {
                        throw new IllegalStateException("eth_call " + function.getName() + " failed: "
                                + answer.getError().getMessage());
                    }
                    List<Type> values = FunctionReturnDecoder.decode(answer.getValue(), function.getOutputParameters());
                    if (values.isEmpty()) {
                        throw new IllegalStateException(
                                "eth_call " + function.getName() + " answered no number: " + answer.getValue());
                    }
                    return (BigInteger) values.get(0).getValue();
                });
    }

    @Override
    public void destroy() {
        clients.values().forEach(Web3j::shutdown);
    }
}
