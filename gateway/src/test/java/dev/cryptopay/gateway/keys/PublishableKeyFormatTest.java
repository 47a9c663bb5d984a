package dev.cryptopay.gateway.keys;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cryptopay.auth.Mode;
import dev.cryptopay.auth.apikey.ApiKey;
import java.security.SecureRandom;
import org.junit.jupiter.api.Test;

class PublishableKeyFormatTest {

    @Test
    void generatedKeysCarryTheirModeInTheirOwnPrefix() {
        for (Mode mode : Mode.values()) {
            PublishableKey key = PublishableKey.generate(mode, new SecureRandom());
            assertThat(key.value()).matches("pk_" + mode.wireName() + "_[A-Z2-7]{32}");
            assertThat(PublishableKey.parse(key.value()).mode()).isEqualTo(mode);
            assertThat(key.displayPrefix()).isEqualTo(key.value().substring(0, 12));
            assertThat(ApiKey.isWellFormed(key.value()))
                    .as("never mistaken for an API key")
                    .isFalse();
        }
    }

    @Test
    void acceptsOnlyTheExactForm() {
        assertThat(PublishableKey.isWellFormed("pk_test_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"))
                .isTrue();
        assertThat(PublishableKey.isWellFormed("pk_test_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"))
                .isFalse();
        assertThat(PublishableKey.isWellFormed("pk_test_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"))
                .isFalse();
        assertThat(PublishableKey.isWellFormed("pk_prod_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"))
                .isFalse();
        assertThat(PublishableKey.isWellFormed("mk_test_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"))
                .isFalse();
        assertThat(PublishableKey.isWellFormed(null)).isFalse();
        assertThatThrownBy(() -> new PublishableKey("pk_test_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", Mode.LIVE))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
