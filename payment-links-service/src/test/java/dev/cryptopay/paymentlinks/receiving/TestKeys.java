package dev.cryptopay.paymentlinks.receiving;

import dev.cryptopay.auth.bip32.ExtendedPublicKey;
import java.security.SecureRandom;
import org.web3j.crypto.Bip32ECKeyPair;
import org.web3j.crypto.Keys;

/**
 * Fresh receiving keys for tests, made the way a wallet makes them: web3j derives the private account key
 * m/44'/60'/0'/0 from a random seed, and its public half is written as an xpub. A key can be registered by one
 * merchant only, so each test takes its own.
 */
public final class TestKeys {

    private static final SecureRandom RANDOM = new SecureRandom();
    private static final int HARDENED = Bip32ECKeyPair.HARDENED_BIT;

    /** A receiving chain and the private key it came from (to check addresses against web3j's own derivation). */
    public record Wallet(Bip32ECKeyPair privateChain, ExtendedPublicKey publicChain) {

        public String xpub() {
            return publicChain.serialize();
        }

        /** The address of account {@code index}, derived from the private key by web3j. */
        public String account(int index) {
            return Keys.toChecksumAddress(
                    Keys.getAddress(Bip32ECKeyPair.deriveKeyPair(privateChain, new int[] {index})));
        }
    }

    private TestKeys() {}

    public static Wallet wallet() {
        byte[] seed = new byte[32];
        RANDOM.nextBytes(seed);
        Bip32ECKeyPair master = Bip32ECKeyPair.generateKeyPair(seed);
        Bip32ECKeyPair chain =
                Bip32ECKeyPair.deriveKeyPair(master, new int[] {44 | HARDENED, 60 | HARDENED, HARDENED, 0});
        ExtendedPublicKey xpub = new ExtendedPublicKey(
                ExtendedPublicKey.KeyNetwork.MAINNET,
                chain.getDepth(),
                chain.getParentFingerprint(),
                chain.getChildNumber(),
                chain.getChainCode(),
                chain.getPublicKeyPoint().getEncoded(true));
        return new Wallet(chain, ExtendedPublicKey.parse(xpub.serialize()));
    }

    /** The same key written with test-network version bytes ({@code tpub…}). */
    static String asTpub(String xpub) {
        return ExtendedPublicKey.parse(xpub)
                .withNetwork(ExtendedPublicKey.KeyNetwork.TESTNET)
                .serialize();
    }
}
