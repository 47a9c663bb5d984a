package dev.cryptopay.chainwatcher.keeper;

import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.web3j.crypto.Bip32ECKeyPair;
import org.web3j.crypto.Keys;
import org.web3j.crypto.MnemonicUtils;
import org.web3j.utils.Numeric;

/**
 * The public development keys: the accounts of the test mnemonic every local node hands out (anvil's ten, Hardhat's
 * twenty: {@code m/44'/60'/0'/0/i} of "test test … junk"). Their private keys are published, so on a real network
 * anyone can spend what they hold and send with their nonces; the production profile refuses them as a keeper key.
 */
final class DevelopmentKeys {

    private static final String MNEMONIC = "test test test test test test test test test test test junk";
    private static final int ACCOUNTS = 20;
    private static final int HARDENED = 0x80000000;

    /** The addresses, lower-case without 0x. */
    private static final Set<String> ADDRESSES = derive();

    private DevelopmentKeys() {}

    /** Whether {@code address} (0x-hex, any letter case) is one of them. */
    static boolean isDevelopmentKey(String address) {
        return ADDRESSES.contains(Numeric.cleanHexPrefix(address).toLowerCase(Locale.ROOT));
    }

    private static Set<String> derive() {
        Bip32ECKeyPair master = Bip32ECKeyPair.generateKeyPair(MnemonicUtils.generateSeed(MNEMONIC, ""));
        return IntStream.range(0, ACCOUNTS)
                .mapToObj(index -> Bip32ECKeyPair.deriveKeyPair(
                        master, new int[] {44 | HARDENED, 60 | HARDENED, HARDENED, 0, index}))
                .map(key -> Keys.getAddress(key).toLowerCase(Locale.ROOT))
                .collect(Collectors.toUnmodifiableSet());
    }
}
