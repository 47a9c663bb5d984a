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
    void theTreasuryIsOnTheAccountsInternalChainWhereNoDepositAddressIs() {
        SandboxWallet wallet = SandboxWallet.fromMnemonic(DEV_MNEMONIC);

        // ethers 6 (dev-chain/node_modules): HDNodeWallet.fromMnemonic(dev mnemonic, "m/44'/60'/0'/1/0").address
        assertThat(wallet.treasuryAddress()).isEqualTo("0x4b39F7b0624b9dB86AD293686bc38B903142dbBc");
        ExtendedPublicKey xpub = ExtendedPublicKey.parse(wallet.extendedPublicKey());
        for (int index = 0; index < 100; index++) {
            assertThat(address(xpub.child(index).orElseThrow())).isNotEqualTo(wallet.treasuryAddress());
        }
    }

    @Test
    void account0SignsPlanTypedDataExactlyAsAWalletDoes() throws IOException {
        // subscriptions-service's first EIP-712 vector (src/test/resources/eip712/vectors.json): ethers 6.17.0's
        // Wallet.signTypedData with anvil's account 0, the dev mnemonic's account 0. Both sign deterministically
        // (RFC 6979), so the same key gives the same 65 bytes.
        String typedData = """
                {"types":{"EIP712Domain":[{"name":"name","type":"string"},{"name":"version","type":"string"},\
                {"name":"chainId","type":"uint256"},{"name":"verifyingContract","type":"address"}],\
                "SubscriptionPlan":[{"name":"merchant","type":"address"},{"name":"destination","type":"address"},\
                {"name":"token","type":"address"},{"name":"amount","type":"uint256"},{"name":"currency","type":"string"},\
                {"name":"value","type":"string"},{"name":"interval","type":"uint64"},\
                {"name":"trialPeriod","type":"uint64"},{"name":"maxArrears","type":"uint64"},\
                {"name":"autoCancelAfterMissed","type":"uint32"},{"name":"subscribeDeadline","type":"uint64"},\
                {"name":"planNonce","type":"uint256"}]},"primaryType":"SubscriptionPlan",\
                "domain":{"name":"Cryptopay Subscriptions","version":"1","chainId":31337,\
                "verifyingContract":"0x5FbDB2315678afecb367f032d93F642f64180aa3"},\
                "message":{"merchant":"0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266",\
                "destination":"0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC",\
                "token":"0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512","amount":"10000000","currency":"","value":"",\
                "interval":"2592000","trialPeriod":"604800","maxArrears":"259200","autoCancelAfterMissed":"3",\
                "subscribeDeadline":"86400","planNonce":"0"}}""";

        assertThat(SandboxWallet.fromMnemonic(DEV_MNEMONIC).signTypedData(typedData))
                .isEqualTo("0x8375a303b952c09b0f979d669f7bacd89de54f90983e152b491e3dfd226683d9"
                        + "265c638c45851401d3582b293c7bf69ab02d848cb5071638abca9fcef5837d5f1b");
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
