package dev.cryptopay.chainwatcher.pricing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;

/** How {@link UsdPricer} reads a feed's answers: only a positive, fresh answer gives a value. */
class UsdPricerTest {

    private static final String FEED = "0x700b6a60ce7eaaea56f065753d8dcb9653dbad35";
    private static final Instant NOW = Instant.parse("2026-11-26T10:00:00Z");
    private static final String EIGHT = word(BigInteger.valueOf(8));

    @Test
    void aPositiveFreshAnswerPricesTheAmount() {
        UsdValue value = value(round(BigInteger.valueOf(300_012_345_678L), NOW.minusSeconds(60)));
        assertThat(value.source()).isEqualTo(UsdValue.PRICE_FEED);
        assertThat(value.usd()).isEqualByComparingTo("7500.30864195"); // 2.5 × 3000.12345678
    }

    @Test
    void aNegativeOrZeroAnswerIsUnknown() {
        assertThat(value(round(BigInteger.valueOf(-300_000_000_000L), NOW)).known())
                .isFalse();
        assertThat(value(round(BigInteger.ZERO, NOW)).known()).isFalse();
    }

    @Test
    void aShortOrGarbledAnswerIsUnknown() {
        String whole = round(BigInteger.valueOf(300_000_000_000L), NOW);
        assertThat(value(whole.substring(0, whole.length() - 2)).known()).isFalse();
        assertThat(value("0x").known()).isFalse();
        assertThat(value("0x" + "zz".repeat(160)).known()).isFalse();
    }

    @Test
    void anAnswerOlderThanTheMaxAgeOrFromAnImpossibleTimeIsUnknown() {
        assertThat(value(round(BigInteger.valueOf(300_000_000_000L), NOW.minus(Duration.ofHours(27))))
                        .known())
                .isFalse();
        assertThat(value("0x" + word(BigInteger.ONE) + word(BigInteger.TEN) + word(BigInteger.ONE) + "ff".repeat(32)
                                + word(BigInteger.ONE))
                        .known())
                .as("updatedAt of 2^256 - 1")
                .isFalse();
    }

    @Test
    void aFeedThatRevertsOrHasNoDecimalsIsUnknownAndAnRpcFailureFails() {
        UsdPricer reverting = new UsdPricer((contract, data) -> Mono.just(Optional.empty()), Duration.ofHours(26));
        assertThat(reverting.value(FEED, false, BigDecimal.ONE, NOW).block().known())
                .isFalse();

        UsdPricer down = new UsdPricer(
                (contract, data) -> Mono.error(new UncheckedIOException(new IOException("connection refused"))),
                Duration.ofHours(26));
        assertThatThrownBy(() -> down.value(FEED, false, BigDecimal.ONE, NOW).block())
                .hasRootCauseInstanceOf(IOException.class);
    }

    @Test
    void withoutAFeedAStablecoinCountsOneDollarAUnitAndAnythingElseIsUnknown() {
        UsdPricer pricer = new UsdPricer((contract, data) -> Mono.error(new AssertionError("no call")), Duration.ZERO);
        UsdValue stable =
                pricer.value(null, true, new BigDecimal("12.345678"), NOW).block();
        assertThat(stable.source()).isEqualTo(UsdValue.STABLECOIN);
        assertThat(stable.usd()).isEqualByComparingTo("12.345678");
        assertThat(pricer.value(" ", false, BigDecimal.TEN, NOW).block().source())
                .isEqualTo(UsdValue.UNKNOWN);
    }

    private static UsdValue value(String latestRoundData) {
        Map<String, String> answers =
                Map.of(UsdPricer.DECIMALS, "0x" + EIGHT, UsdPricer.LATEST_ROUND_DATA, latestRoundData);
        UsdPricer pricer =
                new UsdPricer((contract, data) -> Mono.just(Optional.of(answers.get(data))), Duration.ofHours(26));
        return pricer.value(FEED, false, new BigDecimal("2.5"), NOW).block();
    }

    /** latestRoundData's answer: (roundId, answer, startedAt, updatedAt, answeredInRound). */
    private static String round(BigInteger answer, Instant updatedAt) {
        BigInteger time = BigInteger.valueOf(updatedAt.getEpochSecond());
        return "0x" + word(BigInteger.ONE) + word(answer) + word(time) + word(time) + word(BigInteger.ONE);
    }

    /** A 32-byte two's complement word, hex without 0x. */
    private static String word(BigInteger value) {
        BigInteger unsigned = value.signum() < 0 ? value.add(BigInteger.ONE.shiftLeft(256)) : value;
        String hex = unsigned.toString(16);
        return "0".repeat(64 - hex.length()) + hex;
    }
}
