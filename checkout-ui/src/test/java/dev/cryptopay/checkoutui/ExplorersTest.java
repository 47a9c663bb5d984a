package dev.cryptopay.checkoutui;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ExplorersTest {

    private static final String HASH = "0x" + "ab".repeat(32);

    @Test
    void mainNetworksHaveTheirExplorerAndTheDevChainNone() {
        Explorers explorers = Explorers.of(Map.of());
        assertThat(explorers.transaction(1, HASH)).contains("https://etherscan.io/tx/" + HASH);
        assertThat(explorers.transaction(8453, HASH)).contains("https://basescan.org/tx/" + HASH);
        assertThat(explorers.transaction(31337, HASH)).isEmpty();
        assertThat(explorers.transaction(1, "0xnot-a-hash"))
                .as("only real hashes")
                .isEmpty();
        assertThat(explorers.transaction(1, null)).isEmpty();
    }

    @Test
    void settingsAddReplaceAndRemoveExplorers() {
        Map<Long, String> settings = new HashMap<>();
        settings.put(31337L, "http://127.0.0.1:5100/");
        settings.put(1L, "https://eth.example");
        settings.put(137L, " ");
        Explorers explorers = Explorers.of(settings);
        assertThat(explorers.transaction(31337, HASH)).contains("http://127.0.0.1:5100/tx/" + HASH);
        assertThat(explorers.transaction(1, HASH)).contains("https://eth.example/tx/" + HASH);
        assertThat(explorers.transaction(137, HASH)).isEmpty();
    }

    @Test
    void refusesAnExplorerThatIsNotAWebAddress() {
        assertThatThrownBy(() -> Explorers.of(Map.of(5L, "javascript:alert(1)")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("chain 5");
    }
}
