package dev.cryptopay.auth.apikey;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cryptopay.auth.Mode;
import java.security.SecureRandom;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.NullAndEmptySource;
import org.junit.jupiter.params.provider.ValueSource;

class ApiKeyTest {

    private static final String VALID_TEST_KEY = "mk_test_ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
    private static final String VALID_LIVE_KEY = "mk_live_ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

    @ParameterizedTest
    @EnumSource(Mode.class)
    void generatedKeyRoundTripsThroughParse(Mode mode) {
        ApiKey generated = ApiKey.generate(mode, new SecureRandom());

        assertThat(ApiKey.parse(generated.value())).isEqualTo(generated);
        assertThat(generated.mode()).isEqualTo(mode);
        assertThat(generated.value()).matches("mk_" + mode.wireName() + "_[A-Z2-7]{32}");
    }

    @Test
    void generatedKeysDiffer() {
        SecureRandom random = new SecureRandom();

        assertThat(ApiKey.generate(Mode.LIVE, random)).isNotEqualTo(ApiKey.generate(Mode.LIVE, random));
    }

    @Test
    void generateBase32EncodesTwentyRandomBytes() {
        assertThat(ApiKey.generate(Mode.TEST, constantRandom((byte) 0x00)).value())
                .isEqualTo("mk_test_" + "A".repeat(32));
        assertThat(ApiKey.generate(Mode.LIVE, constantRandom((byte) 0xFF)).value())
                .isEqualTo("mk_live_" + "7".repeat(32));
    }

    @Test
    void parseReadsModeFromPrefix() {
        assertThat(ApiKey.parse(VALID_TEST_KEY).mode()).isEqualTo(Mode.TEST);
        assertThat(ApiKey.parse(VALID_LIVE_KEY).mode()).isEqualTo(Mode.LIVE);
    }

    @ParameterizedTest
    @NullAndEmptySource
    @ValueSource(
            strings = {
                "mk_test_ABCDEFGHIJKLMNOPQRSTUVWXYZ23456", // 31 chars
                "mk_test_ABCDEFGHIJKLMNOPQRSTUVWXYZ2345677", // 33 chars
                "mk_test_abcdefghijklmnopqrstuvwxyz234567", // lower case
                "mk_test_ABCDEFGHIJKLMNOPQRSTUVWXYZ234560", // 0 is not base32
                "mk_test_ABCDEFGHIJKLMNOPQRSTUVWXYZ234518", // 1 and 8 are not base32
                "mk_test_ABCDEFGHIJKLMNOPQRSTUVWXYZ23456=", // padding
                "mk_prod_ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", // unknown mode
                "MK_TEST_ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", // upper-case prefix
                "sk_test_ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", // wrong prefix
                "mk_testABCDEFGHIJKLMNOPQRSTUVWXYZ234567", // missing underscore
                " mk_test_ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", // leading space
                "mk_test_ABCDEFGHIJKLMNOPQRSTUVWXYZ234567\n", // trailing newline
                "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", // no prefix
            })
    void rejectsMalformedKeys(String text) {
        assertThat(ApiKey.isWellFormed(text)).isFalse();
        assertThatThrownBy(() -> ApiKey.parse(text))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("API key");
    }

    @Test
    void acceptsWellFormedKeys() {
        assertThat(ApiKey.isWellFormed(VALID_TEST_KEY)).isTrue();
        assertThat(ApiKey.isWellFormed(VALID_LIVE_KEY)).isTrue();
    }

    @Test
    void rejectionMessageDoesNotContainTheKey() {
        String almostKey = "mk_live_" + "SECRET".repeat(5) + "SECR"; // 34 characters after the prefix

        assertThatThrownBy(() -> ApiKey.parse(almostKey))
                .isInstanceOf(IllegalArgumentException.class)
                .message()
                .doesNotContain("SECRET");
    }

    @Test
    void constructorRejectsModeThatContradictsPrefix() {
        assertThatThrownBy(() -> new ApiKey(VALID_TEST_KEY, Mode.LIVE))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("prefix says test");
    }

    @Test
    void displayPrefixIsFirstTwelveCharacters() {
        assertThat(ApiKey.parse(VALID_TEST_KEY).displayPrefix()).isEqualTo("mk_test_ABCD");
    }

    @Test
    void toStringHidesTheKey() {
        ApiKey key = ApiKey.parse(VALID_LIVE_KEY);

        assertThat(key.toString()).isEqualTo("mk_live_ABCD…").doesNotContain("EFGH");
    }

    private static SecureRandom constantRandom(byte value) {
        return new SecureRandom() {
            @Override
            public void nextBytes(byte[] bytes) {
                Arrays.fill(bytes, value);
            }
        };
    }
}
