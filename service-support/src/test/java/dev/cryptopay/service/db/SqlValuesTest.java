package dev.cryptopay.service.db;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

/** Instants to and from {@code timestamptz} values; null passes through. */
class SqlValuesTest {

    @Test
    void instantsGoToTheDatabaseAtUtcAndComeBackTheSame() {
        Instant instant = Instant.parse("2026-11-25T12:34:56.789Z");
        OffsetDateTime utc = SqlValues.utc(instant);
        assertThat(utc.getOffset()).isEqualTo(ZoneOffset.UTC);
        assertThat(SqlValues.instant(utc)).isEqualTo(instant);
        assertThat(SqlValues.instant(instant.atOffset(ZoneOffset.ofHours(5)))).isEqualTo(instant);
    }

    @Test
    void nullStaysNull() {
        assertThat(SqlValues.utc(null)).isNull();
        assertThat(SqlValues.instant(null)).isNull();
    }
}
