package dev.cryptopay.chainwatcher.pricing;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.web3j.utils.Numeric;
import reactor.core.publisher.Mono;

/**
 * Values amounts in USD with a Chainlink-style feed ({@code AggregatorV3Interface}: {@code decimals()} and
 * {@code latestRoundData()}) read by {@code eth_call} on the payment's own network. A feed whose answer is not positive
 * or was last updated more than {@code maxAge} before the chain's time is not trusted: the value is then unknown (zero,
 * said so), never a guess. An RPC failure fails the Mono (the caller tries again later); a feed that reverts or
 * answers garbage is unknown. Feed decimals are read once per feed.
 */
public final class UsdPricer {

    /** How the feeds are read: {@code eth_call} on the payment's network at its latest block. */
    @FunctionalInterface
    public interface FeedCalls {

        /**
         * Calls {@code contract} with {@code data}: the returned bytes (0x-hex), or empty when the call fails on the
         * chain (a revert, no code); the Mono fails on an RPC error or timeout.
         */
        Mono<Optional<String>> call(String contract, String data);
    }

    /** An updatedAt beyond this many bits (2^40 seconds is year 36812) is garbage, not a time. */
    private static final int MAX_TIME_BITS = 40;

    private static final Logger log = LoggerFactory.getLogger(UsdPricer.class);

    /** Selectors of {@code decimals()} and {@code latestRoundData()}. */
    static final String DECIMALS = "0x313ce567";

    static final String LATEST_ROUND_DATA = "0xfeaf968c";

    /** USD values keep 8 decimals (a hundred-thousandth of a cent). */
    static final int SCALE = 8;

    private final FeedCalls client;
    private final Duration maxAge;
    private final Map<String, Integer> feedDecimals = new ConcurrentHashMap<>();

    public UsdPricer(FeedCalls client, Duration maxAge) {
        this.client = client;
        this.maxAge = maxAge;
    }

    /**
     * The USD value of {@code amount} whole units of an asset priced by {@code feed} (0x address), or counted one
     * dollar a unit when {@code stablecoin} and there is no feed; unknown when neither.
     *
     * @param chainTime the time of the chain's newest block, which the feed's age is measured against
     */
    public Mono<UsdValue> value(String feed, boolean stablecoin, BigDecimal amount, Instant chainTime) {
        if (feed == null || feed.isBlank()) {
            return Mono.just(stablecoin ? new UsdValue(scaled(amount), UsdValue.STABLECOIN) : UsdValue.unknown());
        }
        return decimals(feed).flatMap(decimals -> {
            if (decimals < 0) {
                log.warn("Price feed {} does not answer decimals(): its values are unknown", feed);
                return Mono.just(UsdValue.unknown());
            }
            return client.call(feed, LATEST_ROUND_DATA)
                    .map(result -> result.map(returned -> pricedOrUnknown(feed, amount, returned, decimals, chainTime))
                            .orElseGet(() -> {
                                log.warn("Price feed {} cannot be read: latestRoundData() failed", feed);
                                return UsdValue.unknown();
                            }));
        });
    }

    private UsdValue pricedOrUnknown(String feed, BigDecimal amount, String returned, int decimals, Instant time) {
        try {
            return priced(feed, amount, returned, decimals, time);
        } catch (RuntimeException garbage) { // not hex
            log.warn("Price feed {} answered latestRoundData with garbage: {}", feed, garbage.toString());
            return UsdValue.unknown();
        }
    }

    private UsdValue priced(String feed, BigDecimal amount, String returned, int decimals, Instant chainTime) {
        String hex = Numeric.cleanHexPrefix(returned == null ? "" : returned);
        if (hex.length() < 5 * 64) {
            log.warn("Price feed {} answered latestRoundData with {} bytes", feed, hex.length() / 2);
            return UsdValue.unknown();
        }
        BigInteger answer = new BigInteger(1, Numeric.hexStringToByteArray(hex.substring(64, 128)));
        if (hex.charAt(64) >= '8') { // int256: the top bit set is a negative answer
            answer = answer.subtract(BigInteger.ONE.shiftLeft(256));
        }
        BigInteger updatedAt = Numeric.toBigInt(hex.substring(192, 256));
        Instant updated = updatedAt.bitLength() > MAX_TIME_BITS ? null : Instant.ofEpochSecond(updatedAt.longValue());
        if (answer.signum() <= 0
                || updated == null
                || updatedAt.signum() == 0
                || updated.plus(maxAge).isBefore(chainTime)) {
            log.warn(
                    "Price feed {} is not usable (answer {}, updated at {}, chain time {}, max age {})",
                    feed,
                    answer,
                    updated,
                    chainTime,
                    maxAge);
            return UsdValue.unknown();
        }
        BigDecimal price = new BigDecimal(answer).movePointLeft(decimals);
        return new UsdValue(scaled(amount.multiply(price)), UsdValue.PRICE_FEED);
    }

    /** The feed's decimals; -1 when it does not answer them (then every value from it is unknown). */
    private Mono<Integer> decimals(String feed) {
        Integer known = feedDecimals.get(feed);
        if (known != null) {
            return Mono.just(known);
        }
        return client.call(feed, DECIMALS).map(result -> {
            String hex = Numeric.cleanHexPrefix(result.orElse(""));
            if (hex.length() < 64 || !hex.substring(0, 64).matches("[0-9a-fA-F]{64}")) {
                return -1;
            }
            BigInteger answered = new BigInteger(hex.substring(0, 64), 16);
            if (answered.compareTo(BigInteger.valueOf(36)) > 0) {
                return -1;
            }
            int decimals = answered.intValueExact();
            feedDecimals.put(feed, decimals);
            return decimals;
        });
    }

    private static BigDecimal scaled(BigDecimal usd) {
        return usd.setScale(SCALE, RoundingMode.HALF_EVEN).stripTrailingZeros();
    }
}
