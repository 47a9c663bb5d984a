package dev.cryptopay.chainwatcher.keeper;

import java.math.BigInteger;
import java.time.Instant;

/**
 * A transaction the keeper signed (a row of {@code keeper_transaction}), recorded before it was broadcast.
 *
 * @param subscriptionId the subscription collected; null for a 0-value transfer to the keeper that replaced a collect
 *     which would no longer succeed
 * @param status         {@code pending}, {@code replaced}, {@code mined}, {@code confirmed} or {@code abandoned}
 *     (V3__keeper.sql says what each means)
 * @param raw            the signed transaction, 0x-hex
 * @param sentChainTime  the chain's time when it was recorded; {@code stuck-after} counts from it
 * @param blockNumber    the block it was mined in, or null
 * @param accepted       a node took it (a broadcast answered its hash, or a node knew it): only then is it ever
 *     replaced with higher fees
 */
record KeeperTransaction(
        long chainId,
        String txHash,
        String keeperAddress,
        long nonce,
        String subscriptionId,
        String status,
        BigInteger gasLimit,
        Fees fees,
        String raw,
        Instant sentChainTime,
        Long blockNumber,
        boolean accepted,
        Instant createdAt) {

    static final String PENDING = "pending";
    static final String REPLACED = "replaced";
    static final String MINED = "mined";
    static final String CONFIRMED = "confirmed";
    static final String ABANDONED = "abandoned";

    /** A transaction just signed, not recorded yet. */
    static KeeperTransaction signed(
            long chainId,
            String keeperAddress,
            long nonce,
            String subscriptionId,
            BigInteger gasLimit,
            Fees fees,
            Signer.Signed signed,
            Pass pass) {
        return new KeeperTransaction(
                chainId,
                signed.hash(),
                keeperAddress,
                nonce,
                subscriptionId,
                PENDING,
                gasLimit,
                fees,
                signed.raw(),
                pass.chainTime(),
                null,
                false,
                pass.now());
    }

    /** Whether it collects a subscription (rather than only using up its nonce). */
    boolean collects() {
        return subscriptionId != null;
    }
}
