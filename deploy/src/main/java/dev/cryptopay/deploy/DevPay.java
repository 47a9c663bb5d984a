package dev.cryptopay.deploy;

import dev.cryptopay.testsupport.chain.DevTokens;
import java.io.IOException;
import java.io.PrintStream;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
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
            err.println(
                    receipt.isStatusOK()
                            ? "[dev-pay] mined in block " + receipt.getBlockNumber() + "; chain-watcher reports it to "
                                    + "payment-links-service (see the link with ./signed-request GET /payment_links/<id>)"
                            : "[dev-pay] transaction " + receipt.getTransactionHash() + " reverted in block "
                                    + receipt.getBlockNumber());
            out.println(receipt.getTransactionHash());
            return receipt.isStatusOK() ? 0 : 1;
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

    /**
     * An EIP-681 payment request of the two forms payment-links-service writes: an ERC-20 transfer
     * {@code ethereum:<token>@<chain>/transfer?address=<to>&uint256=<base units>} and a native payment
     * {@code ethereum:<to>@<chain>?value=<wei>}. The chain id may be left out (then the wallet's chain applies) and the
     * target may carry EIP-681's {@code pay-} prefix; numbers may be written {@code 2.5e18}. Anything else (ENS names,
     * other functions, missing or fractional amounts, bad EIP-55 checksums) is refused with the reason. Addresses come out
     * EIP-55 checksummed; the amount (base units, or wei) is positive; token is empty for the native coin.
     */
    public record PaymentUri(Optional<String> token, String recipient, BigInteger amount, OptionalLong chainId) {

        private static final Pattern SHAPE =
                Pattern.compile("ethereum:(?:pay-)?([^@/?]+)(?:@(\\d+))?(?:/([A-Za-z_][A-Za-z0-9_]*))?(?:\\?(.*))?");
        private static final Pattern ADDRESS = Pattern.compile("0x[0-9a-fA-F]{40}");
        private static final Pattern NUMBER = Pattern.compile("\\d+(\\.\\d+)?([eE]\\d+)?");

        /** @throws IllegalArgumentException saying what is wrong with the URI */
        public static PaymentUri parse(String uri) {
            Matcher shape = SHAPE.matcher(uri.strip());
            if (!shape.matches()) {
                throw new IllegalArgumentException(
                        "not an EIP-681 payment URI (ethereum:<address>[@<chain id>]" + "[/transfer]?…): " + uri);
            }
            String target = address(shape.group(1), "the target");
            OptionalLong chainId =
                    shape.group(2) == null ? OptionalLong.empty() : OptionalLong.of(Long.parseLong(shape.group(2)));
            Map<String, String> parameters = parameters(shape.group(4));
            String function = shape.group(3);
            if (function == null) {
                return new PaymentUri(Optional.empty(), target, amount(parameters, "value"), chainId);
            }
            if (!function.equals("transfer")) {
                throw new IllegalArgumentException(
                        "only token transfers (/transfer) and native payments are paid here," + " not /" + function);
            }
            String recipient = parameters.get("address");
            if (recipient == null) {
                throw new IllegalArgumentException("a token transfer needs the recipient as address=<0x…>");
            }
            return new PaymentUri(
                    Optional.of(target), address(recipient, "address="), amount(parameters, "uint256"), chainId);
        }

        private static Map<String, String> parameters(String query) {
            Map<String, String> parameters = new LinkedHashMap<>();
            for (String pair : query == null || query.isEmpty() ? new String[0] : query.split("&")) {
                String[] nameAndValue = pair.split("=", 2);
                String name = URLDecoder.decode(nameAndValue[0], StandardCharsets.UTF_8);
                String value =
                        nameAndValue.length < 2 ? "" : URLDecoder.decode(nameAndValue[1], StandardCharsets.UTF_8);
                if (parameters.put(name, value) != null) {
                    throw new IllegalArgumentException("the parameter " + name + " appears twice");
                }
            }
            return parameters;
        }

        private static String address(String text, String what) {
            if (!ADDRESS.matcher(text).matches()) {
                throw new IllegalArgumentException(what + " must be a 0x address of 40 hex digits (ENS names are not "
                        + "resolved here): " + text);
            }
            String checksummed = Keys.toChecksumAddress(text);
            boolean mixedCase = !text.substring(2).equals(text.substring(2).toLowerCase(Locale.ROOT))
                    && !text.substring(2).equals(text.substring(2).toUpperCase(Locale.ROOT));
            if (mixedCase && !checksummed.equals(text)) {
                throw new IllegalArgumentException(what + " has a wrong EIP-55 checksum: " + text + " (a typo?)");
            }
            return checksummed;
        }

        private static BigInteger amount(Map<String, String> parameters, String name) {
            String text = parameters.get(name);
            if (text == null || text.isEmpty()) {
                throw new IllegalArgumentException("the amount is missing: " + name + "=<base units>");
            }
            if (!NUMBER.matcher(text).matches()) {
                throw new IllegalArgumentException(name + " must be a number, not '" + text + "'");
            }
            BigDecimal number = new BigDecimal(text);
            if (number.precision() - number.scale() > 78) { // more digits than any uint256, e.g. 1e1000000
                throw new IllegalArgumentException(name + "=" + text + " does not fit 256 bits");
            }
            BigInteger amount;
            try {
                amount = number.toBigIntegerExact();
            } catch (ArithmeticException e) {
                throw new IllegalArgumentException(name + "=" + text + " is not a whole number of base units");
            }
            if (amount.signum() == 0 || amount.bitLength() > 256) {
                throw new IllegalArgumentException(name + "=" + text + " must be more than 0 and fit 256 bits");
            }
            return amount;
        }
    }
}
