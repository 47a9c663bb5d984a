package dev.cryptopay.deploy;

import dev.cryptopay.deploy.chain.PaymentUri;
import dev.cryptopay.testsupport.chain.DevTokens;
import java.io.IOException;
import java.io.PrintStream;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
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
 * {@code ./dev-pay <payment_uri>}: pays a payment link's EIP-681 URI on the local stack's dev chain as its customer
 * (the account and public test key in {@code .local/stack.env}, or the file named by {@code STACK_ENV}), waits until
 * the transaction is mined and prints its hash on stdout; what it does goes to stderr. Exit status 0 when the payment
 * was mined, 1 when the chain refused or reverted it, 2 for a usage or set-up problem.
 */
public final class DevPay {

    private DevPay() {}

    public static void main(String[] args) {
        quietLogging();
        System.exit(run(args, System.getenv(), System.out, System.err));
    }

    static int run(String[] args, Map<String, String> env, PrintStream out, PrintStream err) {
        if (args.length != 1 || args[0].startsWith("-")) {
            err.println("""
                    usage: ./dev-pay "<payment_uri>"
                      ./dev-pay "ethereum:0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512@31337/transfer?address=0x…&uint256=10500000"
                    Pays a payment link's payment_uri on the local dev chain from the stack's customer account
                    (quote the URI: it holds '&'). Settings: .local/stack.env, written by ./run-local (STACK_ENV=<path>).""");
            return 2;
        }
        Path envFile = SignedRequest.stackEnvFile(env);
        Map<String, String> stack = EnvFile.read(envFile);
        if (!stack.containsKey("DEV_CHAIN_RPC_URL") || !stack.containsKey("CUSTOMER_PRIVATE_KEY")) {
            err.println("[dev-pay] " + DisplayPath.of(envFile)
                    + (Files.exists(envFile)
                            ? " names no dev chain: the stack runs without it (it needs Node.js 20 and npm; see the"
                                    + " line ./run-local printed about it)."
                            : " does not exist. Start the stack with ./run-local first; it writes that file."));
            return 2;
        }
        PaymentUri payment;
        try {
            payment = PaymentUri.parse(args[0]);
        } catch (IllegalArgumentException e) {
            err.println("[dev-pay] " + e.getMessage());
            return 2;
        }
        String rpcUrl = stack.get("DEV_CHAIN_RPC_URL");
        Web3j web3j = Web3j.build(new HttpService(rpcUrl));
        try {
            Credentials payer = Credentials.create(stack.get("CUSTOMER_PRIVATE_KEY"));
            err.println("[dev-pay] paying " + describe(payment) + " to " + payment.recipient() + " from "
                    + Keys.toChecksumAddress(payer.getAddress()) + " on " + rpcUrl);
            TransactionReceipt receipt = pay(web3j, payer, payment);
            if (!receipt.isStatusOK()) {
                err.println("[dev-pay] transaction " + receipt.getTransactionHash() + " reverted in block "
                        + receipt.getBlockNumber());
                out.println(receipt.getTransactionHash());
                return 1;
            }
            err.println("[dev-pay] mined in block " + receipt.getBlockNumber() + "; chain-watcher reports it to "
                    + "payment-links-service (see the link with ./signed-request GET /payment_links/<id>)");
            out.println(receipt.getTransactionHash());
            return 0;
        } catch (IllegalArgumentException e) {
            err.println("[dev-pay] " + e.getMessage() + " (a live-mode link is paid on its real network, not here)");
            return 2;
        } catch (IllegalStateException | TransactionException e) {
            err.println("[dev-pay] " + e.getMessage());
            return 1;
        } catch (IOException e) {
            err.println("[dev-pay] the dev chain at " + rpcUrl + " does not answer (" + e.getMessage()
                    + "). Is the stack running (./run-local)?");
            return 2;
        } finally {
            web3j.shutdown();
        }
    }

    /**
     * Signs the payment here (EIP-155 with the node's chain id; gas limit and price from the node), sends it with
     * {@code eth_sendRawTransaction} and waits until it is mined (up to 30 s).
     *
     * @throws IllegalArgumentException when the URI names another chain than the node's
     * @throws IllegalStateException    when the node refuses it, e.g. because it would revert (the reason given)
     */
    static TransactionReceipt pay(Web3j web3j, Credentials payer, PaymentUri payment)
            throws IOException, TransactionException {
        long chainId =
                checked(web3j.ethChainId().send(), "eth_chainId").getChainId().longValueExact();
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
        return new PollingTransactionReceiptProcessor(web3j, 250, 120)
                .waitForTransactionReceipt(sent.getTransactionHash());
    }

    private static <T extends Response<?>> T checked(T response, String what) {
        if (response.hasError()) {
            throw new IllegalStateException(
                    what + " was refused by the node: " + response.getError().getMessage());
        }
        return response;
    }

    /** "10.5 USDC" for a dev chain token, "0.25 ETH" for the native coin, base units for any other token. */
    static String describe(PaymentUri payment) {
        if (payment.token().isEmpty()) {
            return whole(payment.amount(), 18) + " ETH";
        }
        String contract = payment.token().get();
        return Arrays.stream(DevTokens.values())
                .filter(token -> token.address().equalsIgnoreCase(contract))
                .findFirst()
                .map(token -> whole(payment.amount(), token.decimals()) + " " + token.code())
                .orElse(payment.amount() + " base units of the token " + contract);
    }

    /** Warnings only, on stderr (tool-logback.xml), so no library line mixes with what a tool prints; before any logger. */
    static void quietLogging() {
        if (System.getProperty("logback.configurationFile") == null) {
            System.setProperty("logback.configurationFile", "tool-logback.xml");
        }
    }

    private static String whole(BigInteger baseUnits, int decimals) {
        return new BigDecimal(baseUnits)
                .movePointLeft(decimals)
                .stripTrailingZeros()
                .toPlainString();
    }
}
