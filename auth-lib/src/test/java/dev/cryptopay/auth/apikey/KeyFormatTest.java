package dev.cryptopay.auth.apikey;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cryptopay.auth.Mode;
import java.security.SecureRandom;
import java.util.Locale;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Both kinds of key go through one parser; ApiKeyTest covers the refused forms in detail. */
class KeyFormatTest {

    private static final String BODY = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

    @ParameterizedTest
    @EnumSource(KeyFormat.class)
    void readsTheModeFromItsOwnPrefixOnly(KeyFormat format) {
        assertThat(format.modeOf(format.prefix() + "test_" + BODY)).isEqualTo(Mode.TEST);
        assertThat(format.modeOf(format.prefix() + "live_" + BODY)).isEqualTo(Mode.LIVE);
        for (KeyFormat other : KeyFormat.values()) {
            assertThat(format.isWellFormed(other.prefix() + "test_" + BODY))
                    .as(other + " in " + format)
                    .isEqualTo(other == format);
        }
    }

    @ParameterizedTest
    @EnumSource(KeyFormat.class)
    void refusesTheSameFormsForEveryKind(KeyFormat format) {
        String prefix = format.prefix();
        for (String text : new String[] {
            null,
            "",
            prefix + "test_" + BODY.substring(1),
            prefix + "test_" + BODY + "A",
            prefix + "test_" + BODY.toLowerCase(Locale.ROOT),
            prefix + "test_" + BODY.replace('7', '0'),
            prefix + "prod_" + BODY,
            prefix.toUpperCase(Locale.ROOT) + "TEST_" + BODY,
            prefix + "test" + BODY,
            " " + prefix + "test_" + BODY,
            prefix + "test_" + BODY + "\n",
            BODY
        }) {
            assertThat(format.isWellFormed(text)).as(String.valueOf(text)).isFalse();
            assertThatThrownBy(() -> format.modeOf(text))
                    .isInstanceOf(IllegalArgumentException.class)
                    .message()
                    .doesNotContain("ABCDEFGHIJ");
        }
    }

    @ParameterizedTest
    @EnumSource(KeyFormat.class)
    void namesTheKindInItsRefusals(KeyFormat format) {
        String noun = format == KeyFormat.API_KEY ? "API key" : "publishable key";

        assertThatThrownBy(() -> format.modeOf("junk")).hasMessageStartingWith("Malformed " + noun + ": expected");
        assertThatThrownBy(() -> format.modeOf(null)).hasMessageEndingWith("key is missing");
        assertThatThrownBy(() -> format.requireMode(format.prefix() + "test_" + BODY, Mode.LIVE))
                .hasMessageEndingWith("key prefix says test but mode is live");
    }

    @ParameterizedTest
    @EnumSource(KeyFormat.class)
    void generatesWellFormedKeysOfTheGivenMode(KeyFormat format) {
        String key = format.generate(Mode.LIVE, new SecureRandom());

        assertThat(key).matches(format.prefix() + "live_[A-Z2-7]{32}");
        assertThat(format.modeOf(key)).isEqualTo(Mode.LIVE);
        assertThat(KeyFormat.displayPrefix(key)).isEqualTo(key.substring(0, 12));
    }
}
