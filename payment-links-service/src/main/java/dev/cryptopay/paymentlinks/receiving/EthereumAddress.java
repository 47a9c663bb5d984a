package dev.cryptopay.paymentlinks.receiving;

import dev.cryptopay.auth.bip32.ExtendedPublicKey;
import org.web3j.crypto.Keys;
import org.web3j.utils.Numeric;

/** The EIP-55 Ethereum address of a key (the same on every EVM network): Keccak and checksum casing by web3j. */
public final class EthereumAddress {

    private EthereumAddress() {}

    public static String of(ExtendedPublicKey key) {
        return Keys.toChecksumAddress(Numeric.toHexString(Keys.getAddress(key.uncompressedPublicKey())));
    }
}
