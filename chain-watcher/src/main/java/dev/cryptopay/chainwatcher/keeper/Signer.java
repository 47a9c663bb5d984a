package dev.cryptopay.chainwatcher.keeper;

import java.io.IOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.regex.Pattern;
import org.web3j.crypto.Credentials;
import org.web3j.crypto.Hash;
import org.web3j.crypto.RawTransaction;
import org.web3j.crypto.TransactionEncoder;
import org.web3j.utils.Numeric;

/**
 * The keeper's key on one chain, read from its secret file: signs the keeper's transactions locally (web3j), and
 * nothing else. The key has no privilege anywhere (collect is open to anyone) and holds only gas money; customer funds
 * never pass through it. Neither this class nor its errors ever show the key: only its address.
 */
final class Signer {

    private static final Pattern PRIVATE_KEY = Pattern.compile("(0x)?[0-9a-fA-F]{64}");

    private final Credentials credentials;
    private final long chainId;
    private final String address;

    private Signer(Credentials credentials, long chainId) {
        this.credentials = credentials;
        this.chainId = chainId;
        this.address = credentials.getAddress().toLowerCase(Locale.ROOT);
    }

    /** A signed transaction: its hash and the bytes to broadcast, 0x-hex. */
    record Signed(String hash, String raw) {}

    /**
     * Reads a key file: a 0x-hex private key of 32 bytes (surrounding white space ignored).
     *
     * @throws IllegalStateException naming the file, never its content, when it cannot be read or holds no such key
     */
    static Signer read(Path file, long chainId) {
        String key;
        try {
            key = Files.readString(file, StandardCharsets.US_ASCII).strip();
        } catch (IOException e) {
            throw new IllegalStateException("Cannot read the keeper key file " + file + " of chain " + chainId + " ("
                    + e.getClass().getSimpleName() + ")");
        }
        if (!PRIVATE_KEY.matcher(key).matches() || Numeric.toBigInt(key).signum() == 0) {
            throw new IllegalStateException("The keeper key file " + file + " of chain " + chainId
                    + " does not hold a 0x-hex private key of 32 bytes");
        }
        return new Signer(Credentials.create(key), chainId);
    }

    /** The key's address, lower-case. */
    String address() {
        return address;
    }

    /** Signs a transaction of no value (EIP-1559, or EIP-155 legacy on a chain without a base fee). */
    Signed sign(long nonce, String to, String data, BigInteger gasLimit, Fees fees) {
        BigInteger n = BigInteger.valueOf(nonce);
        byte[] signed;
        if (fees.legacy()) {
            RawTransaction raw =
                    RawTransaction.createTransaction(n, fees.maxFeePerGas(), gasLimit, to, BigInteger.ZERO, data);
            signed = TransactionEncoder.signMessage(raw, chainId, credentials);
        } else {
            RawTransaction raw = RawTransaction.createTransaction(
                    chainId, n, gasLimit, to, BigInteger.ZERO, data, fees.priorityFeePerGas(), fees.maxFeePerGas());
            signed = TransactionEncoder.signMessage(raw, credentials);
        }
        return new Signed(Numeric.toHexString(Hash.sha3(signed)), Numeric.toHexString(signed));
    }

    @Override
    public String toString() {
        return "Signer[" + address + " on chain " + chainId + "]";
    }
}
