package dev.cryptopay.auth.keys;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.NullAndEmptySource;
import org.junit.jupiter.params.provider.ValueSource;

class KeyAlgorithmTest {

    @Test
    void wireNamesAreStable() {
        assertThat(KeyAlgorithm.ED25519.wireName()).isEqualTo("ed25519");
        assertThat(KeyAlgorithm.RSA_PSS_SHA256.wireName()).isEqualTo("rsa-pss-sha256");
    }

    @ParameterizedTest
    @EnumSource(KeyAlgorithm.class)
    void wireNameRoundTrips(KeyAlgorithm algorithm) {
        assertThat(KeyAlgorithm.fromWireName(algorithm.wireName())).isSameAs(algorithm);
    }

    @ParameterizedTest
    @NullAndEmptySource
    @ValueSource(strings = {"rsa", "ED25519", "RSA_PSS_SHA256"})
    void rejectsUnknownWireNames(String wireName) {
        assertThatThrownBy(() -> KeyAlgorithm.fromWireName(wireName))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("Unknown key algorithm");
    }
}
