package dev.cryptopay.paymentlinks.paymentlink;

import dev.cryptopay.paymentlinks.receiving.EthereumAddress;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.util.UUID;

/**
 * A refund the merchant asked for: money its own wallet sends back from the link's deposit address (the service holds
 * no key). It is {@link RefundStatus#INITIATED} until an outgoing transfer of the address with its token, recipient and
 * exact amount is seen, {@link RefundStatus#PENDING} while that transfer waits for confirmations,
 * {@link RefundStatus#COMPLETED} once it is confirmed; {@link RefundStatus#FAILED} when nothing paid it before
 * {@code expiresAt} or its transfer was reorganised away.
 *
 * @param transactionId   the transfer refunded (any asset); null for a refund of the link's money in its token
 * @param failure         why it failed; null unless {@link RefundStatus#FAILED}
 * @param tokenContract   lower case; null for the native coin
 * @param asset           the currency code of the token (else its contract, as the link's transfers name it)
 * @param amount          whole units of the token
 * @param amountBaseUnits the same in the token's smallest unit
 * @param fromAddress     the link's deposit address, which pays it
 * @param toAddress       where the money goes (EIP-55)
 * @param expiresAt       until when an outgoing transfer may pay it; an initiated refund is abandoned after
 * @param txHash          the transfer that paid it; null while initiated (or abandoned)
 * @param logIndex        that transfer's log index (-1 for the native coin); null with {@code txHash}
 */
public record LinkRefund(
        UUID id,
        UUID paymentLinkId,
        UUID transactionId,
        RefundStatus status,
        RefundFailure failure,
        String network,
        long chainId,
        String tokenContract,
        String asset,
        int decimals,
        BigDecimal amount,
        BigInteger amountBaseUnits,
        String fromAddress,
        String toAddress,
        Instant expiresAt,
        String txHash,
        Integer logIndex,
        Instant createdAt,
        Instant updatedAt) {

    /**
     * The EIP-681 request the merchant's wallet pays from the deposit address, in the link's own URI forms:
     * {@code ethereum:<token>@<chain>/transfer?address=<to>&uint256=<units>}, or {@code ethereum:<to>@<chain>?value=<wei>}.
     */
    public String paymentUri() {
        return ChainPayment.uri(
                chainId,
                tokenContract == null ? null : EthereumAddress.checksummed(tokenContract),
                toAddress,
                amountBaseUnits);
    }

    /** Whether an outgoing transfer may still pay it: nothing has yet. */
    public boolean open() {
        return status == RefundStatus.INITIATED;
    }

    /** Whether it claims part of what can be refunded: open, pending or completed (not failed). */
    public boolean claims() {
        return status != RefundStatus.FAILED;
    }

    /** Paid by the transfer (hash, log index): pending while it waits for confirmations, completed once confirmed. */
    public LinkRefund paidBy(String hash, int index, boolean confirmed, Instant now) {
        return with(confirmed ? RefundStatus.COMPLETED : RefundStatus.PENDING, null, hash, index, now);
    }

    /** Failed: {@link RefundFailure#ABANDONED} keeps no transfer, {@link RefundFailure#REORGANISED} keeps the one lost. */
    public LinkRefund failed(RefundFailure why, Instant now) {
        return why == RefundFailure.ABANDONED
                ? with(RefundStatus.FAILED, why, null, null, now)
                : with(RefundStatus.FAILED, why, txHash, logIndex, now);
    }

    private LinkRefund with(RefundStatus next, RefundFailure why, String hash, Integer index, Instant now) {
        return new LinkRefund(
                id,
                paymentLinkId,
                transactionId,
                next,
                why,
                network,
                chainId,
                tokenContract,
                asset,
                decimals,
                amount,
                amountBaseUnits,
                fromAddress,
                toAddress,
                expiresAt,
                hash,
                index,
                createdAt,
                now);
    }
}
