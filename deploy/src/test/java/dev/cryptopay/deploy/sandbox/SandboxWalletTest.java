package dev.cryptopay.deploy.sandbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cryptopay.auth.bip32.ExtendedPublicKey;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.web3j.crypto.Bip32ECKeyPair;
import org.web3j.crypto.Keys;
import org.web3j.crypto.MnemonicUtils;

class SandboxWalletTest {

    private static final String DEV_MNEMONIC = "test test test test test test test test test test test junk";

    @Test
    void theFirstRunMakesAWalletInAnOwnerOnlyFileAndLaterRunsReadTheSameOne(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("sandbox-wallet.txt");

        SandboxWallet created = SandboxWallet.loadOrCreate(file);
        SandboxWallet again = SandboxWallet.loadOrCreate(file);

        assertThat(Files.getPosixFilePermissions(file)).isEqualTo(PosixFilePermissions.fromString("rw-------"));
        assertThat(Files.readString(file)).contains("DEVELOPMENT-ONLY").contains(created.mnemonic());
        assertThat(created.mnemonic().split(" ")).hasSize(12);
        assertThat(MnemonicUtils.validateMnemonic(created.mnemonic())).isTrue();
        assertThat(again).isEqualTo(created);
        assertThat(SandboxWallet.loadOrCreate(dir.resolve("other.txt")).mnemonic())
                .as("random entropy: another file, another wallet")
                .isNotEqualTo(created.mnemonic());
        assertThat(created.toString()).doesNotContain(created.mnemonic().split(" ")[0] + " ");
    }

    @Test
    void theReceivingKeyIsTheXpubOfTheEthereumReceivingChainAndItsFirstChildIsTheFirstAddress() {
        SandboxWallet wallet = SandboxWallet.fromMnemonic(DEV_MNEMONIC);

        ExtendedPublicKey xpub = ExtendedPublicKey.parse(wallet.extendedPublicKey());
        assertThat(wallet.extendedPublicKey()).startsWith("xpub");
        assertThat(xpub.depth()).isEqualTo(4);
        assertThat(xpub.childNumber()).isZero();
        // anvil derives its dev accounts from this mnemonic on the same path: accounts 0 and 1.
        assertThat(wallet.firstAddress()).isEqualTo("0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266");
        assertThat(address(xpub.child(0).orElseThrow())).isEqualTo(wallet.firstAddress());
        assertThat(address(xpub.child(1).orElseThrow())).isEqualTo("0x70997970C51812dc3A010C7d01b50e0d17dc79C8");
    }

    @Test
    void theParentFingerprintIsThatOfTheAccountKey() {
        Bip32ECKeyPair master = Bip32ECKeyPair.generateKeyPair(MnemonicUtils.generateSeed(DEV_MNEMONIC, ""));
        int[] accountPath = {
            SandboxWallet.RECEIVING_PATH[0], SandboxWallet.RECEIVING_PATH[1], SandboxWallet.RECEIVING_PATH[2]
        };
        Bip32ECKeyPair account = Bip32ECKeyPair.deriveKeyPair(master, accountPath);
        ExtendedPublicKey accountKey = new ExtendedPublicKey(
                ExtendedPublicKey.KeyNetwork.MAINNET,
                account.getDepth(),
                account.getParentFingerprint(),
                account.getChildNumber(),
                account.getChainCode(),
                account.getPublicKeyPoint().getEncoded(true));

        ExtendedPublicKey receiving =
                ExtendedPublicKey.parse(SandboxWallet.fromMnemonic(DEV_MNEMONIC).extendedPublicKey());

        assertThat(receiving.parentFingerprint()).isEqualTo(accountKey.fingerprint());
        assertThat(accountKey.child(0)).contains(receiving);
    }

    @Test
    void aFileWithoutAValidMnemonicIsRefused(@TempDir Path dir) throws IOException {
        Path empty = Files.writeString(dir.resolve("empty.txt"), "# only a comment\n");
        Path wrong = Files.writeString(dir.resolve("wrong.txt"), "test test test\n");

        assertThatThrownBy(() -> SandboxWallet.loadOrCreate(empty)).hasMessageContaining("holds no mnemonic");
        assertThatThrownBy(() -> SandboxWallet.loadOrCreate(wrong)).hasMessageContaining("not a valid BIP-39");
    }

    private static String address(ExtendedPublicKey key) {
        return Keys.toChecksumAddress(Keys.getAddress(new java.math.BigInteger(1, key.uncompressedPublicKey())));
    }
}
