package dev.cryptopay.deploy.sandbox;

import dev.cryptopay.auth.bip32.ExtendedPublicKey;
import dev.cryptopay.deploy.EnvFile;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import org.web3j.crypto.Bip32ECKeyPair;
import org.web3j.crypto.Keys;
import org.web3j.crypto.MnemonicUtils;
import org.web3j.crypto.Sign;
import org.web3j.utils.Numeric;

/**
 * The sandbox merchant's wallet: a BIP-39 mnemonic made on the first run (web3j, 128 bits of {@link SecureRandom}
 * entropy) and kept in {@code sandbox-wallet.txt}, owner-only. A DEVELOPMENT-ONLY secret: it lives in plain text on
 * this machine and must never hold real funds. Its receiving chain {@code m/44'/60'/0'/0} (web3j's BIP-32) is written
 * as an {@code xpub} with auth-lib's {@link ExtendedPublicKey} and registered as the merchant's test-mode receiving
 * key, so each link's deposit address is one of the wallet's accounts (the first link's is account 0). The example
 * subscription plan pays to the wallet's treasury address instead, on the internal chain {@code m/44'/60'/0'/1}, which
 * no link's deposit address is on: otherwise its charges would arrive at the first link's address.
 *
 * @param mnemonic          the twelve words (no passphrase)
 * @param extendedPublicKey the {@code xpub} of {@code m/44'/60'/0'/0}
 * @param firstAddress      account 0, {@code m/44'/60'/0'/0/0}, EIP-55: it signs the example plan
 * @param treasuryAddress   {@code m/44'/60'/0'/1/0}, EIP-55: where the example plan's payments go
 */
public record SandboxWallet(String mnemonic, String extendedPublicKey, String firstAddress, String treasuryAddress) {

    /** BIP-44 for Ethereum: purpose 44', coin 60', account 0', external chain 0. */
    static final int[] RECEIVING_PATH = {
        44 | Bip32ECKeyPair.HARDENED_BIT, 60 | Bip32ECKeyPair.HARDENED_BIT, Bip32ECKeyPair.HARDENED_BIT, 0
    };

    /** The same account's internal chain: m/44'/60'/0'/1. */
    static final int[] TREASURY_PATH = {
        44 | Bip32ECKeyPair.HARDENED_BIT, 60 | Bip32ECKeyPair.HARDENED_BIT, Bip32ECKeyPair.HARDENED_BIT, 1
    };

    /** Where a merchant registers its receiving key, relative to the gateway's base URL. */
    public static final String RECEIVING_KEY_PATH = "/payment_links/receiving_key";

    private static final SecureRandom RANDOM = new SecureRandom();
    private static final String HEADER = """
            # The local stack's sandbox wallet: a DEVELOPMENT-ONLY secret, kept in plain text on this machine.
            # Never send real funds to its addresses. BIP-39 mnemonic, no passphrase; its receiving key m/44'/60'/0'/0
            # is registered as the sandbox merchant's test-mode receiving key. ./run-local --reset makes a new one.
            """;

    public static SandboxWallet loadOrCreate(Path file) {
        if (Files.exists(file)) {
            return fromMnemonic(read(file));
        }
        byte[] entropy = new byte[16];
        RANDOM.nextBytes(entropy);
        SandboxWallet wallet = fromMnemonic(MnemonicUtils.generateMnemonic(entropy));
        EnvFile.writePrivate(file, HEADER + wallet.mnemonic() + "\n");
        return wallet;
    }

    public static SandboxWallet fromMnemonic(String mnemonic) {
        if (!MnemonicUtils.validateMnemonic(mnemonic)) {
            throw new IllegalArgumentException("not a valid BIP-39 mnemonic (English words, checksum)");
        }
        Bip32ECKeyPair receiving = receiving(mnemonic);
        ExtendedPublicKey xpub = new ExtendedPublicKey(
                ExtendedPublicKey.KeyNetwork.MAINNET,
                receiving.getDepth(),
                receiving.getParentFingerprint(),
                receiving.getChildNumber(),
                receiving.getChainCode(),
                receiving.getPublicKeyPoint().getEncoded(true));
        Bip32ECKeyPair first = Bip32ECKeyPair.deriveKeyPair(receiving, new int[] {0});
        Bip32ECKeyPair treasury = Bip32ECKeyPair.deriveKeyPair(
                Bip32ECKeyPair.deriveKeyPair(master(mnemonic), TREASURY_PATH), new int[] {0});
        return new SandboxWallet(mnemonic, xpub.serialize(), address(first), address(treasury));
    }

    private static String address(Bip32ECKeyPair key) {
        return Keys.toChecksumAddress(Keys.getAddress(key.getPublicKey()));
    }

    /** Account 0's EIP-712 signature (web3j) of typed data as JSON: {@code eth_signTypedData_v4}'s 65 bytes, 0x-hex. */
    public String signTypedData(String typedData) throws IOException {
        Sign.SignatureData signature =
                Sign.signTypedData(typedData, Bip32ECKeyPair.deriveKeyPair(receiving(mnemonic), new int[] {0}));
        return Numeric.toHexString(signature.getR())
                + Numeric.toHexStringNoPrefix(signature.getS())
                + Numeric.toHexStringNoPrefix(signature.getV());
    }

    private static Bip32ECKeyPair receiving(String mnemonic) {
        return Bip32ECKeyPair.deriveKeyPair(master(mnemonic), RECEIVING_PATH);
    }

    private static Bip32ECKeyPair master(String mnemonic) {
        return Bip32ECKeyPair.generateKeyPair(MnemonicUtils.generateSeed(mnemonic, ""));
    }

    private static String read(Path file) {
        try {
            return Files.readAllLines(file, StandardCharsets.UTF_8).stream()
                    .map(String::strip)
                    .filter(line -> !line.isEmpty() && !line.startsWith("#"))
                    .findFirst()
                    .orElseThrow(() -> new IllegalStateException(
                            file + " holds no mnemonic: delete it to get a " + "new sandbox wallet"));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
    }

    /** Never shows the mnemonic. */
    @Override
    public String toString() {
        return "SandboxWallet[" + firstAddress + ", " + extendedPublicKey + "]";
    }
}
