package dev.cryptopay.deploy.chain;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.web3j.crypto.Bip32ECKeyPair;
import org.web3j.crypto.Credentials;
import org.web3j.crypto.MnemonicUtils;

class CustomerAccountTest {

    private static final int HARDENED = Bip32ECKeyPair.HARDENED_BIT;

    @Test
    void theKeyIsAccountOneOfAnvilsDevMnemonicAndBelongsToTheAddress() {
        Bip32ECKeyPair master = Bip32ECKeyPair.generateKeyPair(
                MnemonicUtils.generateSeed("test test test test test test test test test test test junk", ""));
        Bip32ECKeyPair accountOne =
                Bip32ECKeyPair.deriveKeyPair(master, new int[] {44 | HARDENED, 60 | HARDENED, HARDENED, 0, 1});

        assertThat(Credentials.create(accountOne).getEcKeyPair().getPrivateKey())
                .isEqualTo(Credentials.create(CustomerAccount.PRIVATE_KEY)
                        .getEcKeyPair()
                        .getPrivateKey());
        assertThat(Credentials.create(CustomerAccount.PRIVATE_KEY).getAddress())
                .isEqualToIgnoringCase(CustomerAccount.ADDRESS);
    }
}
