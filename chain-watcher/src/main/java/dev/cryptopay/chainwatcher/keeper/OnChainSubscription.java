package dev.cryptopay.chainwatcher.keeper;

import java.math.BigInteger;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.web3j.abi.FunctionEncoder;
import org.web3j.abi.datatypes.Function;
import org.web3j.abi.datatypes.generated.Bytes32;
import org.web3j.utils.Numeric;

/**
 * A subscription as the contract's {@code getSubscription} answers it, the part the keeper decides with, and the
 * decisions themselves. Times are chain times.
 *
 * @param endsAt null when it never ends
 */
record OnChainSubscription(
        Instant nextDue, Duration grace, Instant endsAt, int missedInRow, long paidPeriods, boolean active) {

    /** The fourteen static members of the Subscription struct, one 32-byte word each. */
    private static final int WORDS = 14;

    /** Times beyond year 9999 (a plan may ask for any uint64) are read as that year: never due in practice. */
    private static final BigInteger LATEST = BigInteger.valueOf(253_402_300_799L);

    /** Call data of {@code getSubscription(id)}. */
    static String read(String subscriptionId) {
        return call("getSubscription", subscriptionId);
    }

    /** Call data of {@code collect(id)}. */
    static String collect(String subscriptionId) {
        return call("collect", subscriptionId);
    }

    /** Whether a simulated collect answered {@code true}: it would pull a period now. */
    static boolean charged(String returned) {
        return returned != null
                && returned.length() >= 66
                && Numeric.toBigInt(returned.substring(0, 66)).signum() != 0;
    }

    /** Decodes getSubscription's answer (planId, subscriber, … active: see the contract's struct). */
    static OnChainSubscription decode(String returned) {
        String hex = Numeric.cleanHexPrefix(returned);
        if (hex.length() < WORDS * 64) {
            throw new IllegalArgumentException("getSubscription answered " + hex.length() / 2 + " bytes");
        }
        BigInteger endsAt = word(hex, 11);
        return new OnChainSubscription(
                time(word(hex, 10)),
                Duration.ofSeconds(word(hex, 7).min(LATEST).longValueExact()),
                endsAt.signum() == 0 ? null : time(endsAt),
                word(hex, 9).min(BigInteger.valueOf(Integer.MAX_VALUE)).intValueExact(),
                word(hex, 12).min(BigInteger.valueOf(Long.MAX_VALUE)).longValueExact(),
                word(hex, 13).signum() != 0);
    }

    /** Whether a period can be collected now (its start has come). */
    boolean due(Instant chainTime) {
        return !chainTime.isBefore(nextDue);
    }

    /** The last moment the due period can still be paid; a collect after it counts the period as missed. */
    Instant graceEnd() {
        return nextDue.plus(grace);
    }

    /**
     * Whether a collect now changes the subscription even when no payment is pulled: it counts periods whose grace
     * passed as missed (which may cancel it), or ends a subscription whose end is reached. Sent once, so that the
     * contract, and from its logs subscriptions-service, knows.
     */
    boolean collectChangesItAnyway(Instant chainTime) {
        return chainTime.isAfter(graceEnd()) || (endsAt != null && !nextDue.isBefore(endsAt));
    }

    /** When to try a refused pull again: after {@code retryInterval}, but no later than just after the grace. */
    Instant retryAt(Instant chainTime, Duration retryInterval) {
        Instant afterGrace = graceEnd().plusSeconds(1);
        Instant retry = chainTime.plus(retryInterval);
        return retry.isBefore(afterGrace) ? retry : afterGrace;
    }

    private static String call(String function, String subscriptionId) {
        return FunctionEncoder.encode(
                new Function(function, List.of(new Bytes32(Numeric.hexStringToByteArray(subscriptionId))), List.of()));
    }

    private static BigInteger word(String hex, int index) {
        return new BigInteger(hex.substring(index * 64, (index + 1) * 64), 16);
    }

    private static Instant time(BigInteger seconds) {
        return Instant.ofEpochSecond(seconds.min(LATEST).longValueExact());
    }
}
