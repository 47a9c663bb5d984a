package dev.cryptopay.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.NullAndEmptySource;
import org.junit.jupiter.params.provider.ValueSource;

class ModeTest {

    @ParameterizedTest
    @EnumSource(Mode.class)
    void wireNameRoundTrips(Mode mode) {
        assertThat(Mode.fromWireName(mode.wireName())).isSameAs(mode);
    }

    @Test
    void wireNamesAreLowerCase() {
        assertThat(Mode.TEST.wireName()).isEqualTo("test");
        assertThat(Mode.LIVE.wireName()).isEqualTo("live");
    }

    @ParameterizedTest
    @NullAndEmptySource
    @ValueSource(strings = {"TEST", "Live", "prod", " test"})
    void rejectsAnythingButTheExactWireName(String wireName) {
        assertThatThrownBy(() -> Mode.fromWireName(wireName))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("expected 'test' or 'live'");
    }
}
