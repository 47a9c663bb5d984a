package dev.cryptopay.deploy;

import java.io.IOException;
import java.io.PrintStream;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
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
 * {@code ./dev-pay <payment_uri>} (see its usage below): waits until the payment is mined and prints its hash on
 * stdout; what it does goes to stderr. Exit status 0 when the payment was mined, 1 when the chain refused or reverted
 * it, 2 for a usage or set-up problem.
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
            err.println("[dev-pay] " + StackConsole.path(envFile)
                    + (Files.exists(envFile)
                            ? " names no dev chain: the stack runs without it (it needs Node.js 20 and npm; see the"
                                    + " line ./run-local printed about it)."
                            : " does not exist. Start the stack with ./run-local first; it writes that file."));
            return 2;
        }
        String rpcUrl = stack.get("DEV_CHAIN_RPC_URL");
        Web3j web3j = Web3j.build(new HttpService(rpcUrl));
        try {
            PaymentUri payment = PaymentUri.parse(args[0]);
            Credentials payer = Credentials.create(stack.get("CUSTOMER_PRIVATE_KEY"));
            err.println("[dev-pay] paying " + payment.amount()
                    + payment.token().map(t -> " base units of " + t).orElse(" wei") + " to " + payment.recipient()
                    + " from " + Keys.toChecksumAddress(payer.getAddress()) + " on " + rpcUrl);
            TransactionReceipt receipt = pay(web3j, payer, payment);
            boolean mined = receipt.isStatusOK();
            err.println("[dev-pay] " + (mined ? "mined" : "reverted") + " in block " + receipt.getBlockNumber()
                    + (mined
                            ? "; chain-watcher reports it (see the link: ./signed-request GET /payment_links/<id>)"
                            : ""));
            out.println(receipt.getTransactionHash());
            return mined ? 0 : 1;
        } catch (IllegalArgumentException e) {
            err.println("[dev-pay] " + e.getMessage());
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
     * {@code eth_sendRawTransaction} and waits until it is mined (up to 30 s). A payment for another chain than the
     * node's is an IllegalArgumentException; one the node refuses (e.g. as it would revert) an IllegalStateException.
     */
    static TransactionReceipt pay(Web3j web3j, Credentials payer, PaymentUri payment)
            throws IOException, TransactionException {
        long chainId =
                checked(web3j.ethChainId().send(), "eth_chainId").getChainId().longValueExact();
        if (payment.chainId() != chainId) {
            throw new IllegalArgumentException("the payment is for chain " + payment.chainId() + ", but the node is "
                    + "chain " + chainId + " (a live-mode link is paid on its real network, not here)");
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

    /** Warnings only, on stderr (tool-logback.xml), so no library line mixes with what a tool prints; before any logger. */
    static void quietLogging() {
        if (System.getProperty("logback.configurationFile") == null) {
            System.setProperty("logback.configurationFile", "tool-logback.xml");
        }
    }

    /**
     * A link's {@code payment_uri} (EIP-681) as payment-links-service writes it: {@code ethereum:<token>@<chain>/transfer
     * ?address=<to>&uint256=<base units>} or {@code ethereum:<to>@<chain>?value=<wei>}. Other forms, ENS names, amounts of
     * 0 or over 256 bits and mistyped EIP-55 checksums are refused with the reason; token is empty for the native coin.
     */
    public record PaymentUri(Optional<String> token, String recipient, BigInteger amount, long chainId) {

        private static final Pattern SHAPE = Pattern.compile("ethereum:(0x\\p{XDigit}{40})@(\\d{1,18})"
                + "(?:/transfer\\?address=(0x\\p{XDigit}{40})&uint256=|\\?value=)(\\d{1,78})");

        /** @throws IllegalArgumentException saying what is wrong with the URI */
        public static PaymentUri parse(String uri) {
            Matcher shape = SHAPE.matcher(uri.strip());
            if (!shape.matches()) {
                throw new IllegalArgumentException("not a payment link's payment_uri (ethereum:<token>@<chain id>/"
                        + "transfer?address=<to>&uint256=<base units>, or ethereum:<to>@<chain id>?value=<wei>): "
                        + uri);
            }
            BigInteger amount = new BigInteger(shape.group(4));
            if (amount.signum() == 0 || amount.bitLength() > 256) {
                throw new IllegalArgumentException("the amount " + amount + " must be more than 0 and fit 256 bits");
            }
            String target = checksummed(shape.group(1));
            long chainId = Long.parseLong(shape.group(2));
            return shape.group(3) == null
                    ? new PaymentUri(Optional.empty(), target, amount, chainId)
                    : new PaymentUri(Optional.of(target), checksummed(shape.group(3)), amount, chainId);
        }

        private static String checksummed(String address) {
            String checksummed = Keys.toChecksumAddress(address);
            String hex = address.substring(2);
            if (!checksummed.equals(address)
                    && !hex.equals(hex.toLowerCase(Locale.ROOT))
                    && !hex.equals(hex.toUpperCase(Locale.ROOT))) {
                throw new IllegalArgumentException(address + " has a wrong EIP-55 checksum (a typo?)");
            }
            return checksummed;
        }
    }
}
