package dev.cryptopay.chainwatcher.scan;

import dev.cryptopay.chainwatcher.config.ChainWatcherProperties.Network;
import dev.cryptopay.chainwatcher.watch.WatchedAddress;
import java.io.IOException;
import java.math.BigInteger;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import okhttp3.OkHttpClient;
import org.web3j.protocol.Web3j;
import org.web3j.protocol.core.DefaultBlockParameter;
import org.web3j.protocol.core.DefaultBlockParameterName;
import org.web3j.protocol.core.Request;
import org.web3j.protocol.core.Response;
import org.web3j.protocol.core.methods.request.EthFilter;
import org.web3j.protocol.core.methods.response.EthBlock;
import org.web3j.protocol.core.methods.response.EthGasPrice;
import org.web3j.protocol.core.methods.response.EthGetBalance;
import org.web3j.protocol.core.methods.response.EthGetTransactionCount;
import org.web3j.protocol.core.methods.response.EthLog;
import org.web3j.protocol.core.methods.response.EthMaxPriorityFeePerGas;
import org.web3j.protocol.core.methods.response.EthSendTransaction;
import org.web3j.protocol.core.methods.response.Log;
import org.web3j.protocol.core.methods.response.Transaction;
import org.web3j.protocol.http.HttpService;
import org.web3j.utils.Numeric;
import reactor.core.publisher.Mono;

/**
 * The JSON-RPC calls one chain needs, as Monos (web3j's asynchronous sends, so no reactive thread blocks): the
 * scanner's reads, and the keeper's calls, balances, nonces, receipts and raw transactions. The scanner's reads cost
 * the same whatever the number of watched addresses: Transfer logs of the followed tokens and whole blocks, matched
 * against the watch list by the caller. Any RPC error or timeout fails the Mono (the scanner then retries the same
 * blocks later), except an {@code eth_call} that the chain answers with a failed execution, which is an answer:
 * {@link CallResult#failed()}, and an eth_getLogs refused as too large, which is asked for in halves
 * ({@link LogRanges}).
 */
public class ChainClient implements AutoCloseable {

    /** keccak256("Transfer(address,address,uint256)"), the ERC-20 Transfer event's topic. */
    public static final String TRANSFER_TOPIC = "0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef";

    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    private final Web3j web3j;
    private final LogRanges ranges;
    private final long chainId;

    public ChainClient(Network network) {
        OkHttpClient http = new OkHttpClient.Builder()
                .connectTimeout(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)
                .readTimeout(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)
                .callTimeout(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)
                .build();
        this.web3j = Web3j.build(new HttpService(network.rpcUrl(), http));
        this.ranges = new LogRanges(network);
        this.chainId = network.chainId();
    }

    /** A block's number, hash and time. */
    public record BlockHeader(long number, String hash, Instant time) {}

    /** A block's header and the native-coin transfers in it (to any recipient). */
    public record BlockTransfers(BlockHeader header, List<SeenTransfer> nativeTransfers) {}

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

    /** A block's time and base fee (null on a chain without EIP-1559). */
    public record BlockFees(long number, Instant time, BigInteger baseFeePerGas) {}

    /**
     * What an {@code eth_call} answered: the return data (0x-hex), or the node's message when the call would fail
     * (a revert, running out of gas): {@code failure} is then set and {@code value} null.
     */
    public record CallResult(String value, String failure) {

        public boolean failed() {
            return failure != null;
        }
    }

    /** A mined transaction: its block and whether it succeeded (status 1). */
    public record Receipt(long blockNumber, boolean succeeded) {}

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

    public Mono<BlockFees> blockFees(long number) {
        return block(number, false)
                .map(block -> new BlockFees(
                        block.getNumber().longValueExact(),
                        Instant.ofEpochSecond(block.getTimestamp().longValueExact()),
                        block.getBaseFeePerGasRaw() == null ? null : block.getBaseFeePerGas()));
    }

    /** The native-coin balance of an address at the latest block, in wei. */
    public Mono<BigInteger> balance(String address) {
        return send(web3j.ethGetBalance(address, DefaultBlockParameterName.LATEST))
                .map(EthGetBalance::getBalance);
    }

    /**
     * The transactions of {@code address} the chain has mined, which is the next nonce; with {@code pending}, those
     * waiting in the node's pool too.
     */
    public Mono<BigInteger> transactionCount(String address, boolean pending) {
        DefaultBlockParameterName at = pending ? DefaultBlockParameterName.PENDING : DefaultBlockParameterName.LATEST;
        return send(web3j.ethGetTransactionCount(address, at)).map(EthGetTransactionCount::getTransactionCount);
    }

    /** The tip the node suggests per gas (EIP-1559 chains). */
    public Mono<BigInteger> maxPriorityFeePerGas() {
        return send(web3j.ethMaxPriorityFeePerGas()).map(EthMaxPriorityFeePerGas::getMaxPriorityFeePerGas);
    }

    /** The gas price the node suggests (chains without EIP-1559). */
    public Mono<BigInteger> gasPrice() {
        return send(web3j.ethGasPrice()).map(EthGasPrice::getGasPrice);
    }

    /**
     * {@code eth_call} at the latest block, from {@code from} with {@code gas} (null: the node's default). A failed
     * execution is an answer; any other error fails the Mono.
     */
    public Mono<CallResult> call(String from, String to, String data, BigInteger gas) {
        return call(new org.web3j.protocol.core.methods.request.Transaction(from, null, null, gas, to, null, data));
    }

    /**
     * {@code eth_call} as a transaction offering these fees would run: EIP-1559's {@code maxFeePerGas} and
     * {@code maxPriorityFeePerGas}, or a legacy {@code gasPrice} when {@code priorityFeePerGas} is null. The node then
     * checks what it checks of a real transaction (the sender's balance for gas × fee, the fee against the base fee):
     * such a refusal fails the Mono; a failed execution is an answer.
     */
    public Mono<CallResult> call(
            String from,
            String to,
            String data,
            BigInteger gas,
            BigInteger maxFeePerGas,
            BigInteger priorityFeePerGas) {
        return call(
                priorityFeePerGas == null
                        ? new org.web3j.protocol.core.methods.request.Transaction(
                                from, null, maxFeePerGas, gas, to, null, data)
                        : new org.web3j.protocol.core.methods.request.Transaction(
                                from, null, null, gas, to, null, data, chainId, priorityFeePerGas, maxFeePerGas));
    }

    private Mono<CallResult> call(org.web3j.protocol.core.methods.request.Transaction call) {
        return answer(web3j.ethCall(call, DefaultBlockParameterName.LATEST)).flatMap(reply -> {
            if (!reply.hasError()) {
                return Mono.just(new CallResult(reply.getValue(), null));
            }
            return executionFailed(reply.getError())
                    ? Mono.just(new CallResult(null, reply.getError().getMessage()))
                    : Mono.error(failure(reply));
        });
    }

    /** The receipt of a transaction, or empty while it is not mined (or no longer, after a reorganisation). */
    public Mono<Optional<Receipt>> receipt(String txHash) {
        return send(web3j.ethGetTransactionReceipt(txHash))
                .map(reply -> reply.getTransactionReceipt()
                        .map(receipt -> new Receipt(receipt.getBlockNumber().longValueExact(), receipt.isStatusOK())));
    }

    /** Whether the node knows a transaction (mined or waiting in its pool). */
    public Mono<Boolean> knows(String txHash) {
        return send(web3j.ethGetTransactionByHash(txHash))
                .map(reply -> reply.getTransaction().isPresent());
    }

    /** Broadcasts a signed transaction (0x-hex); answers its hash. A node refusing it fails the Mono. */
    public Mono<String> sendRaw(String signed) {
        return send(web3j.ethSendRawTransaction(signed)).map(EthSendTransaction::getTransactionHash);
    }

    /**
     * Every ERC-20 Transfer log in [from, to] of these token contracts, whoever receives it: one eth_getLogs call
     * (topic0 Transfer, the contracts as the address filter), whatever the number of watched addresses; recipients are
     * matched by the caller. A range the node refuses as too large is asked for in halves ({@link LogRanges}).
     */
    public Mono<List<SeenTransfer>> tokenTransfers(long from, long to, Collection<String> tokens) {
        if (tokens.isEmpty() || from > to) {
            return Mono.just(List.of());
        }
        List<String> contracts = tokens.stream().sorted().toList();
        return ranges.inHalves(from, to, (first, last) -> {
            EthFilter filter = new EthFilter(blockParameter(first), blockParameter(last), contracts);
            filter.addSingleTopic(TRANSFER_TOPIC);
            return send(web3j.ethGetLogs(filter)).map(ChainClient::transfersOf);
        });
    }

    /** Every log of {@code contract} in [from, to], whatever the event (one eth_getLogs call, halved if refused). */
    public Mono<List<SeenLog>> contractLogs(long from, long to, String contract) {
        return ranges.inHalves(from, to, (first, last) -> {
            EthFilter filter = new EthFilter(blockParameter(first), blockParameter(last), contract);
            return send(web3j.ethGetLogs(filter))
                    .map(reply -> reply.getLogs().stream()
                            .map(result -> (Log) result.get())
                            .map(log -> new SeenLog(
                                    WatchedAddress.normalise(log.getAddress()),
                                    hex(log.getTransactionHash()),
                                    log.getLogIndex().intValueExact(),
                                    log.getBlockNumber().longValueExact(),
                                    hex(log.getBlockHash()),
                                    log.getTopics().stream()
                                            .map(ChainClient::hex)
                                            .toList(),
                                    hex(log.getData()),
                                    log.isRemoved()))
                            .toList());
        });
    }

    /** The block ranges eth_getLogs is asked for: the network's max-block-range, less after the node refused one. */
    public LogRanges ranges() {
        return ranges;
    }

    /**
     * One block with its transactions (one eth_getBlockByNumber call): its header and every native-coin transfer in it
     * (a transaction with a recipient and a value), whoever receives it; recipients are matched by the caller.
     */
    public Mono<BlockTransfers> blockTransfers(long number) {
        return block(number, true).map(block -> {
            BlockHeader header = new BlockHeader(
                    block.getNumber().longValueExact(),
                    block.getHash(),
                    Instant.ofEpochSecond(block.getTimestamp().longValueExact()));
            List<SeenTransfer> transfers = block.getTransactions().stream()
                    .map(result -> (Transaction) result.get())
                    .filter(tx -> tx.getTo() != null && tx.getValue().signum() > 0)
                    .map(tx -> new SeenTransfer(
                            tx.getHash(),
                            -1,
                            header.number(),
                            header.hash(),
                            null,
                            WatchedAddress.normalise(tx.getFrom()),
                            WatchedAddress.normalise(tx.getTo()),
                            tx.getValue(),
                            false))
                    .toList();
            return new BlockTransfers(header, transfers);
        });
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
                // An ERC-20 Transfer: from and to indexed, the value as 32 bytes of data (ERC-721's has 4 topics).
                .filter(log -> log.getTopics().size() == 3
                        && log.getData() != null
                        && Numeric.cleanHexPrefix(log.getData()).length() == 64)
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
        return answer(request).flatMap(reply -> reply.hasError() ? Mono.error(failure(reply)) : Mono.just(reply));
    }

    /** The node's answer, error or not; a timeout or connection failure fails the Mono. */
    private static <T extends Response<?>> Mono<T> answer(Request<?, T> request) {
        return Mono.fromFuture(request::sendAsync).timeout(TIMEOUT);
    }

    private static RpcError failure(Response<?> reply) {
        return new RpcError(reply.getError().getCode(), reply.getError().getMessage());
    }

    /**
     * Whether an eth_call error says the execution failed (code 3 with revert data as geth and anvil answer; "execution
     * reverted" or "out of gas" in the message as other nodes do) rather than that the node could not answer.
     */
    private static boolean executionFailed(Response.Error error) {
        String message = error.getMessage() == null
                ? ""
                : error.getMessage().toLowerCase(java.util.Locale.ROOT).replace(" ", "");
        return error.getCode() == 3 || message.contains("revert") || message.contains("outofgas");
    }

    private static DefaultBlockParameter blockParameter(long number) {
        return DefaultBlockParameter.valueOf(BigInteger.valueOf(number));
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
