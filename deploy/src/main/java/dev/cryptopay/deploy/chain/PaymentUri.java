package dev.cryptopay.deploy.chain;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.web3j.crypto.Keys;

/**
 * An EIP-681 payment request of the two forms payment-links-service writes: an ERC-20 transfer
 * {@code ethereum:<token>@<chain>/transfer?address=<to>&uint256=<base units>} and a native payment
 * {@code ethereum:<to>@<chain>?value=<wei>}. The chain id may be left out (then the wallet's chain applies) and the
 * target may carry EIP-681's {@code pay-} prefix; numbers may be written {@code 2.5e18}. Anything else (ENS names,
 * other functions, missing or fractional amounts, bad EIP-55 checksums) is refused with the reason.
 *
 * @param token     the ERC-20 contract for a token transfer, empty for the native coin
 * @param recipient where the money goes (EIP-55 checksummed)
 * @param amount    in the token's base units, or wei; positive
 * @param chainId   the chain the request names, if any
 */
public record PaymentUri(Optional<String> token, String recipient, BigInteger amount, OptionalLong chainId) {

    private static final Pattern SHAPE =
            Pattern.compile("ethereum:(?:pay-)?([^@/?]+)(?:@(\\d+))?(?:/([A-Za-z_][A-Za-z0-9_]*))?(?:\\?(.*))?");
    private static final Pattern ADDRESS = Pattern.compile("0x[0-9a-fA-F]{40}");
    private static final Pattern NUMBER = Pattern.compile("\\d+(\\.\\d+)?([eE]\\d+)?");

    /**
     * Reads a payment URI.
     *
     * @throws IllegalArgumentException saying what is wrong with it
     */
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
        if (query == null || query.isEmpty()) {
            return parameters;
        }
        for (String pair : query.split("&")) {
            int eq = pair.indexOf('=');
            String name = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
            String value = eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
            if (parameters.put(name, value) != null) {
                throw new IllegalArgumentException("the parameter " + name + " appears twice");
            }
        }
        return parameters;
    }

    private static String address(String text, String what) {
        if (!ADDRESS.matcher(text).matches()) {
            throw new IllegalArgumentException(
                    what + " must be a 0x address of 40 hex digits (ENS names are not " + "resolved here): " + text);
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
