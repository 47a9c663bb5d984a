package dev.cryptopay.deploy.chain;

import java.io.IOException;
import java.math.BigInteger;
import java.util.List;
import org.web3j.abi.FunctionEncoder;
import org.web3j.abi.datatypes.Address;
import org.web3j.abi.datatypes.Function;
import org.web3j.abi.datatypes.generated.Uint256;
import org.web3j.crypto.Credentials;
import org.web3j.crypto.Keys;
import org.web3j.protocol.Web3j;
import org.web3j.protocol.core.Response;
import org.web3j.protocol.core.methods.request.Transaction;
import org.web3j.protocol.core.methods.response.EthEstimateGas;
import org.web3j.protocol.core.methods.response.EthSendTransaction;
import org.web3j.protocol.core.methods.response.TransactionReceipt;
import org.web3j.protocol.exceptions.TransactionException;
import org.web3j.protocol.http.HttpService;
import org.web3j.tx.RawTransactionManager;
import org.web3j.tx.response.PollingTransactionReceiptProcessor;

/**
 * Pays a {@link PaymentUri} from an account whose private key it holds: the transaction is signed here (web3j, EIP-155
 * with the node's chain id), sent with {@code eth_sendRawTransaction}, and waited for until it is mined. Gas limit and
 * price come from the node. A development tool: the key is the stack's public test key.
 */
public final class ChainPayer implements AutoCloseable {

    private static final long RECEIPT_POLL_MILLIS = 250;
    private static final int RECEIPT_POLL_ATTEMPTS = 120;

    private final Web3j web3j;
    private final Credentials payer;

    /** @param privateKey the payer's key, hex with or without {@code 0x} */
    public ChainPayer(String rpcUrl, String privateKey) {
        this.web3j = Web3j.build(new HttpService(rpcUrl));
        this.payer = Credentials.create(privateKey);
    }

    /** The paying account's address (EIP-55). */
    public String payerAddress() {
        return Keys.toChecksumAddress(payer.getAddress());
    }

    /** The chain id the node reports. */
    public long chainId() throws IOException {
        return checked(web3j.ethChainId().send(), "eth_chainId").getChainId().longValueExact();
    }

    /**
     * Sends the payment and waits until it is mined (up to 30 s).
     *
     * @return the receipt; {@link TransactionReceipt#isStatusOK()} says whether it succeeded
     * @throws IllegalArgumentException when the URI names another chain than the node's
     * @throws IllegalStateException    when the node refuses it, e.g. because it would revert (the reason given)
     */
    public TransactionReceipt pay(PaymentUri payment) throws IOException, TransactionException {
        long chainId = chainId();
        if (payment.chainId().isPresent() && payment.chainId().getAsLong() != chainId) {
            throw new IllegalArgumentException(
                    "the payment is for chain " + payment.chainId().getAsLong() + ", but the node is chain " + chainId);
        }
        String to = payment.token().orElse(payment.recipient());
        BigInteger value = payment.token().isPresent() ? BigInteger.ZERO : payment.amount();
        String data = payment.token().isPresent()
                ? FunctionEncoder.encode(new Function(
                        "transfer",
                        List.of(new Address(payment.recipient()), new Uint256(payment.amount())),
                        List.of()))
                : "";
        EthEstimateGas estimate = checked(
                web3j.ethEstimateGas(Transaction.createFunctionCallTransaction(
                                payer.getAddress(), null, null, null, to, value, data))
                        .send(),
                "the payment");
        BigInteger gasPrice =
                checked(web3j.ethGasPrice().send(), "eth_gasPrice").getGasPrice();
        EthSendTransaction sent = checked(
                new RawTransactionManager(web3j, payer, chainId)
                        .sendTransaction(gasPrice, estimate.getAmountUsed(), to, data, value),
                "eth_sendRawTransaction");
        return new PollingTransactionReceiptProcessor(web3j, RECEIPT_POLL_MILLIS, RECEIPT_POLL_ATTEMPTS)
                .waitForTransactionReceipt(sent.getTransactionHash());
    }

    private static <T extends Response<?>> T checked(T response, String what) {
        if (response.hasError()) {
            throw new IllegalStateException(
                    what + " was refused by the node: " + response.getError().getMessage());
        }
        return response;
    }

    @Override
    public void close() {
        web3j.shutdown();
    }
}
