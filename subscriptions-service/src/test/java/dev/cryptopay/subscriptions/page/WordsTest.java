package dev.cryptopay.subscriptions.page;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import org.junit.jupiter.api.Test;

class WordsTest {

    @Test
    void durationsUseTheLargestWholeUnit() {
        assertThat(Words.duration(2_592_000)).isEqualTo("30 days");
        assertThat(Words.duration(86_400)).isEqualTo("1 day");
        assertThat(Words.duration(7_200)).isEqualTo("2 hours");
        assertThat(Words.duration(600)).isEqualTo("10 minutes");
        assertThat(Words.duration(90)).isEqualTo("90 seconds");
        assertThat(Words.duration(1)).isEqualTo("1 second");
        assertThat(Words.duration(0)).isEqualTo("0 seconds");
    }

    @Test
    void intervalsReadAsEveryPeriod() {
        assertThat(Words.every(86_400)).isEqualTo("every day");
        assertThat(Words.every(604_800)).isEqualTo("every week");
        assertThat(Words.every(3_600)).isEqualTo("every hour");
        assertThat(Words.every(2_592_000)).isEqualTo("every 30 days");
        assertThat(Words.every(4)).isEqualTo("every 4 seconds");
    }

    @Test
    void periodsShowTimesWhenShorterThanADay() {
        Instant start = Instant.parse("2026-11-26T03:39:12Z");
        assertThat(Words.period(start, start.plusSeconds(2_592_000), 2_592_000)).isEqualTo("2026-11-26 – 2026-12-26");
        assertThat(Words.period(start, start.plusSeconds(3_600), 3_600)).isEqualTo("2026-11-26 03:39 – 04:39 UTC");
        assertThat(Words.period(Instant.parse("2026-11-26T23:30:00Z"), Instant.parse("2026-11-27T00:30:00Z"), 3_600))
                .isEqualTo("2026-11-26 23:30 – 2026-11-27 00:30 UTC");
        assertThat(Words.period(start, null, 3_600)).isEqualTo("2026-11-26 03:39 UTC");
    }
}
