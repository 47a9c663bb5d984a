package dev.cryptopay.paymentlinks.paymentlink;

import dev.cryptopay.paymentlinks.receiving.DepositAddress;
import java.math.BigInteger;

/**
 * Where and exactly how much a link is paid on chain.
 *
 * @param tokenContract   the ERC-20 contract, or null for the network's native coin
 * @param amountBaseUnits the link amount in the token's base units (10.5 USDC → 10500000)
 * @param deposit         the link's own address, or null when the merchant had no receiving key for the mode
 */
public record ChainPayment(
        long chainId, String tokenContract, int decimals, BigInteger amountBaseUnits, DepositAddress deposit) {

    public String depositAddress() {
        return deposit == null ? null : deposit.address();
    }

    /**
     * The EIP-681 payment request a wallet or QR scanner understands, or null without a deposit address:
     * {@code ethereum:<token>@<chain>/transfer?address=<deposit>&uint256=<units>} for a token,
     * {@code ethereum:<deposit>@<chain>?value=<wei>} for the native coin.
     */
    public String uri() {
        return uri(amountBaseUnits);
    }

    /** As {@link #uri()}, for another amount in base units (the remainder of an underpaid link). */
    public String uri(BigInteger baseUnits) {
        if (deposit == null) {
            return null;
        }
        return uri(chainId, tokenContract, deposit.address(), baseUnits);
    }

    /**
     * The EIP-681 request to send {@code baseUnits} of a token (null: the native coin) to {@code recipient} on
     * {@code chainId}: {@code ethereum:<token>@<chain>/transfer?address=<recipient>&uint256=<units>}, or
     * {@code ethereum:<recipient>@<chain>?value=<wei>}. A link's own request pays its deposit address; a refund's pays
     * the customer from it.
     */
    public static String uri(long chainId, String tokenContract, String recipient, BigInteger baseUnits) {
        return tokenContract == null
                ? "ethereum:" + recipient + "@" + chainId + "?value=" + baseUnits
                : "ethereum:" + tokenContract + "@" + chainId + "/transfer?address=" + recipient + "&uint256="
                        + baseUnits;
    }
}
