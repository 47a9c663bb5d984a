package dev.cryptopay.subscriptions.merchant;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class MerchantNamesTest {

    @Test
    void decodesTheGatewaysHeaderAndRefusesWhatIsNoName() {
        assertThat(MerchantNames.decode("Caf%C3%A9+Zo%C3%AB+%26+Co")).isEqualTo("Café Zoë & Co");
        assertThat(MerchantNames.decode("  Shop%0A%07  ")).isEqualTo("Shop");
        assertThat(MerchantNames.decode("%zz")).isNull();
        assertThat(MerchantNames.decode("%0A")).isNull();
        assertThat(MerchantNames.decode("x".repeat(201))).isNull();
        assertThat(MerchantNames.decode(" ")).isNull();
        assertThat(MerchantNames.decode(null)).isNull();
    }
}
