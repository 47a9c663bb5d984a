package dev.cryptopay.chainwatcher.scan;

import dev.cryptopay.chainwatcher.config.ChainWatcherProperties.Network;
import dev.cryptopay.chainwatcher.watch.WatchedAddress;
import java.io.IOException;
import java.math.BigInteger;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import okhttp3.OkHttpClient;
import org.web3j.protocol.Web3j;
import org.web3j.protocol.core.DefaultBlockParameter;
import org.web3j.protocol.core.Request;
import org.web3j.protocol.core.Response;
import org.web3j.protocol.core.methods.request.EthFilter;
import org.web3j.protocol.core.methods.response.EthBlock;
import org.web3j.protocol.core.methods.response.EthLog;
import org.web3j.protocol.core.methods.response.Log;
import org.web3j.protocol.core.methods.response.Transaction;
import org.web3j.protocol.http.HttpService;
import org.web3j.utils.Numeric;
import reactor.core.publisher.Mono;

/**
 * The JSON-RPC calls one chain needs, as Monos (web3j's asynchronous sends, so no reactive thread blocks). Any RPC
 * error or timeout fails the Mono; the scanner then retries the same blocks later.
 */
public class ChainClient implements AutoCloseable {

    /** keccak256("Transfer(address,address,uint256)"), the ERC-20 Transfer event's topic. */
    public static final String TRANSFER_TOPIC = "0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef";

    private static final Duration TIMEOUT = Duration.ofSeconds(10);
    /** Recipients per eth_getLogs call; nodes limit request sizes. */
    private static final int RECIPIENTS_PER_CALL = 200;

    private final Web3j web3j;

    public ChainClient(Network network) {
        OkHttpClient http = new OkHttpClient.Builder()
                .connectTimeout(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)
                .readTimeout(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)
                .callTimeout(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)
                .build();
        this.web3j = Web3j.build(new HttpService(network.rpcUrl(), http));
    }

    /** A block's number, hash and time. */
    public record BlockHeader(long number, String hash, Instant time) {}

    /** A transfer seen on chain; {@code logIndex} is -1 for a native transfer. */
    public record SeenTransfer(
            String txHash,
            int logIndex,
            long blockNumber,
            String blockHash,
            String token,
            String from,
            String to,
            BigInteger value,
            boolean removed) {}

    /** A log of a followed contract; hex values lower-case, topic0 (the event) first. */
    public record SeenLog(
            String contract,
            String txHash,
            int logIndex,
            long blockNumber,
            String blockHash,
            List<String> topics,
            String data,
            boolean removed) {}

    public Mono<Long> head() {
        return send(web3j.ethBlockNumber()).map(reply -> reply.getBlockNumber().longValueExact());
    }

    public Mono<BlockHeader> header(long number) {
        return block(number, false)
                .map(block -> new BlockHeader(
                        block.getNumber().longValueExact(),
                        block.getHash(),
                        Instant.ofEpochSecond(block.getTimestamp().longValueExact())));
    }

    /** ERC-20 Transfer logs in [from, to] from these token contracts to these recipients. */
    public Mono<List<SeenTransfer>> tokenTransfers(
            long from, long to, Collection<String> tokens, List<String> recipients) {
        if (tokens.isEmpty() || recipients.isEmpty()) {
            return Mono.just(List.of());
        }
        List<Mono<List<SeenTransfer>>> calls = new ArrayList<>();
        for (int start = 0; start < recipients.size(); start += RECIPIENTS_PER_CALL) {
            List<String> batch = recipients.subList(start, Math.min(recipients.size(), start + RECIPIENTS_PER_CALL));
            EthFilter filter = new EthFilter(blockParameter(from), blockParameter(to), List.copyOf(tokens));
            filter.addSingleTopic(TRANSFER_TOPIC);
            filter.addNullTopic();
            filter.addOptionalTopics(batch.stream().map(ChainClient::topicOf).toArray(String[]::new));
            calls.add(send(web3j.ethGetLogs(filter)).map(ChainClient::transfersOf));
        }
        return Mono.zip(calls, results -> {
            List<SeenTransfer> all = new ArrayList<>();
            for (Object result : results) {
                @SuppressWarnings("unchecked")
                List<SeenTransfer> part = (List<SeenTransfer>) result;
                all.addAll(part);
            }
            return all;
        });
    }

    /** Every log of {@code contract} in [from, to], whatever the event (one eth_getLogs call). */
    public Mono<List<SeenLog>> contractLogs(long from, long to, String contract) {
        EthFilter filter = new EthFilter(blockParameter(from), blockParameter(to), contract);
        return send(web3j.ethGetLogs(filter))
                .map(reply -> reply.getLogs().stream()
                        .map(result -> (Log) result.get())
                        .map(log -> new SeenLog(
                                WatchedAddress.normalise(log.getAddress()),
                                hex(log.getTransactionHash()),
                                log.getLogIndex().intValueExact(),
                                log.getBlockNumber().longValueExact(),
                                hex(log.getBlockHash()),
                                log.getTopics().stream().map(ChainClient::hex).toList(),
                                hex(log.getData()),
                                log.isRemoved()))
                        .toList());
    }

    /** Native-coin transfers in one block to these recipients. */
    public Mono<List<SeenTransfer>> nativeTransfers(long number, Set<String> recipients) {
        return block(number, true)
                .map(block -> block.getTransactions().stream()
                        .map(result -> (Transaction) result.get())
                        .filter(tx -> tx.getTo() != null && recipients.contains(WatchedAddress.normalise(tx.getTo())))
                        .filter(tx -> tx.getValue().signum() > 0)
                        .map(tx -> new SeenTransfer(
                                tx.getHash(),
                                -1,
                                number,
                                block.getHash(),
                                null,
                                WatchedAddress.normalise(tx.getFrom()),
                                WatchedAddress.normalise(tx.getTo()),
                                tx.getValue(),
                                false))
                        .toList());
    }

    private Mono<EthBlock.Block> block(long number, boolean withTransactions) {
        return send(web3j.ethGetBlockByNumber(blockParameter(number), withTransactions))
                .flatMap(reply -> reply.getBlock() == null
                        ? Mono.error(new IOException("Block " + number + " is not available yet"))
                        : Mono.just(reply.getBlock()));
    }

    private static List<SeenTransfer> transfersOf(EthLog reply) {
        return reply.getLogs().stream()
                .map(result -> (Log) result.get())
                .filter(log -> log.getTopics().size() == 3)
                .map(log -> new SeenTransfer(
                        log.getTransactionHash(),
                        log.getLogIndex().intValueExact(),
                        log.getBlockNumber().longValueExact(),
                        log.getBlockHash(),
                        WatchedAddress.normalise(log.getAddress()),
                        addressOf(log.getTopics().get(1)),
                        addressOf(log.getTopics().get(2)),
                        Numeric.toBigInt(log.getData()),
                        log.isRemoved()))
                .toList();
    }

    private static <T extends Response<?>> Mono<T> send(Request<?, T> request) {
        return Mono.fromFuture(request::sendAsync)
                .timeout(TIMEOUT)
                .flatMap(reply -> reply.hasError()
                        ? Mono.error(
                                new IOException("RPC error " + reply.getError().getCode() + ": "
                                        + reply.getError().getMessage()))
                        : Mono.just(reply));
    }

    private static DefaultBlockParameter blockParameter(long number) {
        return DefaultBlockParameter.valueOf(BigInteger.valueOf(number));
    }

    /** An address as a 32-byte topic. */
    private static String topicOf(String address) {
        return "0x" + "0".repeat(24) + Numeric.cleanHexPrefix(address).toLowerCase(java.util.Locale.ROOT);
    }

    /** 0x-hex lower-case; "0x" for none (a log without data). */
    private static String hex(String value) {
        return value == null || value.isEmpty() ? "0x" : value.toLowerCase(java.util.Locale.ROOT);
    }

    private static String addressOf(String topic) {
        String hex = Numeric.cleanHexPrefix(topic);
        return "0x" + hex.substring(hex.length() - 40).toLowerCase(java.util.Locale.ROOT);
    }

    @Override
    public void close() {
        web3j.shutdown();
    }
}
