package dev.cryptopay.paymentlinks.receiving;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cryptopay.auth.bip32.ExtendedPublicKey;
import java.io.InputStream;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Deposit addresses derived from public keys, checked against two independent implementations: the addresses ethers
 * derives (committed vectors, see src/test/resources/bip32) and web3j's derivation from the private keys.
 */
class EthereumAddressTest {

    @Test
    void derivesTheSameAddressesAsEthers() throws Exception {
        JsonNode vectors;
        try (InputStream in = getClass().getResourceAsStream("/bip32/vectors.json")) {
            vectors = JsonMapper.builder().build().readTree(in);
        }
        int compared = 0;
        for (JsonNode vector : vectors.get("vectors")) {
            ExtendedPublicKey key =
                    ExtendedPublicKey.parse(vector.get("extended_public_key").asString());
            for (JsonNode expected : vector.get("addresses")) {
                String address = EthereumAddress.of(
                        key.child(expected.get("index").asInt()).orElseThrow());
                assertThat(address)
                        .as(vector.get("description").asString())
                        .isEqualTo(expected.get("address").asString());
                compared++;
            }
        }
        assertThat(compared).isEqualTo(18);
    }

    @Test
    void publicDerivationMatchesWeb3jsPrivateDerivation() {
        for (int wallets = 0; wallets < 5; wallets++) {
            TestKeys.Wallet wallet = TestKeys.wallet();
            for (int index : new int[] {0, 1, 2, 99, Integer.MAX_VALUE}) {
                assertThat(EthereumAddress.of(wallet.publicChain().child(index).orElseThrow()))
                        .isEqualTo(wallet.account(index));
            }
        }
    }
}
