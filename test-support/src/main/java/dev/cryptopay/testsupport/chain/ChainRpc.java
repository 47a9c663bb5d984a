package dev.cryptopay.testsupport.chain;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.web3j.protocol.Web3j;
import org.web3j.protocol.core.DefaultBlockParameter;
import org.web3j.protocol.core.DefaultBlockParameterName;
import org.web3j.protocol.core.Request;
import org.web3j.protocol.core.Response;
import org.web3j.protocol.core.methods.request.Transaction;
import org.web3j.protocol.core.methods.response.TransactionReceipt;
import org.web3j.protocol.http.HttpService;
import org.web3j.utils.Numeric;

/** Blocking JSON-RPC calls to one node: errors become exceptions, transactions wait for their receipt. */
final class ChainRpc {

    private static final Duration RECEIPT_TIMEOUT = Duration.ofSeconds(10);

    /** A JSON-RPC answer whose result is kept as parsed JSON (a string, number, boolean or null). */
    public static final class AnyResponse extends Response<Object> {}

    private final HttpService service;
    private final Web3j web3j;

    ChainRpc(String url) {
        this.service = new HttpService(url);
        this.web3j = Web3j.build(service);
    }

    Web3j web3j() {
        return web3j;
    }

    /** Sends a request and returns its answer; an I/O failure or a JSON-RPC error becomes an exception. */
    <T extends Response<?>> T send(Request<?, T> request) {
        T response;
        try {
            response = request.send();
        } catch (IOException e) {
            throw new UncheckedIOException(request.getMethod() + " failed: " + e.getMessage(), e);
        }
        if (response.hasError()) {
            throw new IllegalStateException(request.getMethod() + " " + request.getParams() + " failed: "
                    + response.getError().getMessage());
        }
        return response;
    }

    /** Sends a method web3j has no typed call for (anvil_*, evm_*) and returns its result. */
    Object custom(String method, Object... params) {
        return send(new Request<>(method, List.of(params), service, AnyResponse.class))
                .getResult();
    }

    /**
     * Sends a transaction from an account the node holds unlocked ({@code eth_sendTransaction}; the node estimates
     * gas and fees) and waits for its receipt.
     *
     * @throws IllegalStateException if the node refuses it or it reverts (anvil mines a reverting transaction; the
     *     message gives the reason, found by replaying the call on the parent block)
     */
    TransactionReceipt transact(String from, BigInteger nonce, String to, BigInteger value, String data) {
        Transaction transaction = new Transaction(from, nonce, null, null, to, value, data);
        String hash = send(web3j.ethSendTransaction(transaction)).getTransactionHash();
        TransactionReceipt receipt = awaitReceipt(hash);
        if (!receipt.isStatusOK()) {
            throw new IllegalStateException(
                    "transaction " + hash + " from " + from + " to " + to + " reverted in block "
                            + receipt.getBlockNumber() + ": " + revertReason(transaction, receipt.getBlockNumber()));
        }
        return receipt;
    }

    /** Like {@link #transact} with a fixed gas limit, answering the receipt even when the transaction reverted. */
    TransactionReceipt transactWithGas(String from, String to, String data, BigInteger gasLimit) {
        Transaction transaction = new Transaction(from, null, null, gasLimit, to, null, data);
        return awaitReceipt(send(web3j.ethSendTransaction(transaction)).getTransactionHash());
    }

    /** Why a mined transaction reverted: the error of the same call replayed on the state it ran on. */
    private String revertReason(Transaction transaction, BigInteger block) {
        Transaction call = new Transaction(
                transaction.getFrom(),
                null,
                null,
                null,
                transaction.getTo(),
                transaction.getValue() == null ? null : Numeric.decodeQuantity(transaction.getValue()),
                transaction.getData());
        try {
            Response.Error error = web3j.ethCall(call, DefaultBlockParameter.valueOf(block.subtract(BigInteger.ONE)))
                    .send()
                    .getError();
            return error == null ? "(no reason: the replayed call succeeds)" : error.getMessage();
        } catch (IOException e) {
            return "(no reason: " + e.getMessage() + ")";
        }
    }

    /** The receipt of a mined transaction, or empty when the node knows of none (pending, unknown, reorged out). */
    Optional<TransactionReceipt> receipt(String hash) {
        return send(web3j.ethGetTransactionReceipt(hash)).getTransactionReceipt();
    }

    /** The result of {@code eth_call} at the latest block, as hex. */
    String call(String to, String data) {
        Transaction call = Transaction.createEthCallTransaction(null, to, data);
        return send(web3j.ethCall(call, DefaultBlockParameterName.LATEST)).getValue();
    }

    private TransactionReceipt awaitReceipt(String hash) {
        long deadline = System.nanoTime() + RECEIPT_TIMEOUT.toNanos();
        while (true) {
            Optional<TransactionReceipt> receipt = receipt(hash);
            if (receipt.isPresent()) {
                return receipt.get();
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("no receipt for " + hash + " within " + RECEIPT_TIMEOUT);
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for the receipt of " + hash, e);
            }
        }
    }

    /**
     * Waits until the node answers {@code eth_chainId}.
     *
     * @throws IllegalStateException if it does not within {@code timeout}
     */
    void awaitAnswer(Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            try {
                web3j.ethChainId().send();
                return;
            } catch (IOException | RuntimeException e) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException(
                            "no node answers at " + service.getUrl() + " within " + timeout + ": " + e.getMessage(), e);
                }
            }
            try {
                Thread.sleep(250);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for " + service.getUrl(), e);
            }
        }
    }

    void shutdown() {
        web3j.shutdown();
    }
}
