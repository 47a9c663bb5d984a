package dev.cryptopay.subscriptions.plan;

import java.math.BigInteger;
import java.security.SignatureException;
import java.util.Arrays;
import java.util.Optional;
import java.util.regex.Pattern;
import org.web3j.crypto.Keys;
import org.web3j.crypto.Sign;
import org.web3j.utils.Numeric;

/**
 * Recovers who signed, from a 65-byte secp256k1 signature (r ‖ s ‖ v, 0x-hex, v 27/28 or 0/1) as wallets produce
 * them: over an EIP-712 digest ({@code eth_signTypedData_v4}) or over a text message ({@code personal_sign},
 * EIP-191). High-s signatures (the malleable twin of a valid one) are refused, as Ethereum has done since EIP-2.
 */
public final class EthSignatures {

    private static final Pattern HEX_65_BYTES = Pattern.compile("0x[0-9a-fA-F]{130}");
    private static final BigInteger HALF_CURVE_ORDER = Sign.CURVE_PARAMS.getN().shiftRight(1);

    private EthSignatures() {}

    /** Who signed this EIP-712 digest (EIP-55 address), or empty when the signature is malformed or recovers none. */
    public static Optional<String> signer(String digestHex, String signatureHex) {
        return recover(
                signatureHex,
                signature -> Sign.signedMessageHashToKey(Numeric.hexStringToByteArray(digestHex), signature));
    }

    /** Who signed this message with {@code personal_sign} (the EIP-191 prefix added), or empty. */
    public static Optional<String> personalSigner(byte[] message, String signatureHex) {
        return recover(signatureHex, signature -> Sign.signedPrefixedMessageToKey(message, signature));
    }

    private interface Recovery {
        BigInteger publicKey(Sign.SignatureData signature) throws SignatureException;
    }

    private static Optional<String> recover(String signatureHex, Recovery recovery) {
        if (signatureHex == null || !HEX_65_BYTES.matcher(signatureHex).matches()) {
            return Optional.empty();
        }
        byte[] signature = Numeric.hexStringToByteArray(signatureHex);
        byte[] r = Arrays.copyOfRange(signature, 0, 32);
        byte[] s = Arrays.copyOfRange(signature, 32, 64);
        int v = signature[64] & 0xff;
        if (v < 27) {
            v += 27;
        }
        BigInteger sValue = new BigInteger(1, s);
        if ((v != 27 && v != 28) || sValue.signum() == 0 || sValue.compareTo(HALF_CURVE_ORDER) > 0) {
            return Optional.empty();
        }
        try {
            BigInteger publicKey = recovery.publicKey(new Sign.SignatureData((byte) v, r, s));
            return Optional.of(Keys.toChecksumAddress(Keys.getAddress(publicKey)));
        } catch (SignatureException | IllegalArgumentException unrecoverable) {
            return Optional.empty();
        }
    }
}
