package dev.cryptopay.auth.bip32;

import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.security.GeneralSecurityException;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Optional;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.bouncycastle.asn1.x9.X9ECParameters;
import org.bouncycastle.crypto.digests.RIPEMD160Digest;
import org.bouncycastle.crypto.digests.SHA256Digest;
import org.bouncycastle.crypto.ec.CustomNamedCurves;
import org.bouncycastle.math.ec.ECPoint;

/**
 * A BIP-32 extended public key on secp256k1 ({@code xpub…}, or {@code tpub…} for test networks) and public child
 * derivation (CKDpub) from it. Parsing checks everything BIP-32 asks of a serialized public key: Base58Check checksum,
 * length, version, a depth-0 key having no parent, and a compressed public key that is a point on the curve. The
 * curve arithmetic is BouncyCastle's; HMAC-SHA512 is the JDK's.
 *
 * @param network    mainnet ({@code xpub}) or testnet ({@code tpub}) version bytes
 * @param publicKey  the 33-byte compressed point
 */
public record ExtendedPublicKey(
        KeyNetwork network, int depth, int parentFingerprint, int childNumber, byte[] chainCode, byte[] publicKey) {

    /** Which version bytes the key was serialized with. */
    public enum KeyNetwork {
        MAINNET(0x0488B21E),
        TESTNET(0x043587CF);

        private final int version;

        KeyNetwork(int version) {
            this.version = version;
        }

        public String wireName() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    private static final int XPRV = 0x0488ADE4;
    private static final int TPRV = 0x04358394;
    private static final int SERIALIZED_LENGTH = 78;
    private static final X9ECParameters CURVE = CustomNamedCurves.getByName("secp256k1");

    /** Parses and validates a serialized extended public key; an {@link InvalidKeyText} says what is wrong. */
    public static ExtendedPublicKey parse(String text) {
        byte[] payload;
        try {
            payload = Base58Check.decode(text.strip());
        } catch (IllegalArgumentException e) {
            throw new InvalidKeyText("Receiving key " + e.getMessage());
        }
        if (payload.length != SERIALIZED_LENGTH) {
            throw new InvalidKeyText("Receiving key is not a BIP-32 extended key (wrong length)");
        }
        ByteBuffer buffer = ByteBuffer.wrap(payload);
        int version = buffer.getInt();
        if (version == XPRV || version == TPRV) {
            throw new InvalidKeyText("Receiving key is an extended private key: register the extended public key "
                    + "(xpub…) instead, and keep the private key to yourself");
        }
        KeyNetwork network = Arrays.stream(KeyNetwork.values())
                .filter(candidate -> candidate.version == version)
                .findFirst()
                .orElseThrow(() -> new InvalidKeyText(
                        "Receiving key must be a BIP-32 extended public key starting with xpub (or tpub)"));
        int depth = Byte.toUnsignedInt(buffer.get());
        int parentFingerprint = buffer.getInt();
        int childNumber = buffer.getInt();
        byte[] chainCode = new byte[32];
        buffer.get(chainCode);
        byte[] key = new byte[33];
        buffer.get(key);
        if (depth == 0 && (parentFingerprint != 0 || childNumber != 0)) {
            throw new InvalidKeyText("Receiving key is malformed: a master key (depth 0) cannot have a parent");
        }
        if (key[0] != 0x02 && key[0] != 0x03) {
            throw new InvalidKeyText("Receiving key is malformed: its public key is not a compressed point");
        }
        try {
            CURVE.getCurve().decodePoint(key);
        } catch (IllegalArgumentException e) {
            throw new InvalidKeyText("Receiving key is malformed: its public key is not a point on secp256k1");
        }
        return new ExtendedPublicKey(network, depth, parentFingerprint, childNumber, chainCode, key);
    }

    /**
     * The non-hardened child at {@code index} (0 ≤ index < 2³¹), or empty for the rare index BIP-32 declares invalid
     * (then the caller moves on to the next index).
     */
    public Optional<ExtendedPublicKey> child(int index) {
        if (index < 0) {
            throw new IllegalArgumentException("Only non-hardened children can be derived from a public key");
        }
        byte[] digest = hmacSha512(
                chainCode, ByteBuffer.allocate(37).put(publicKey).putInt(index).array());
        BigInteger tweak = new BigInteger(1, Arrays.copyOfRange(digest, 0, 32));
        if (tweak.compareTo(CURVE.getN()) >= 0) {
            return Optional.empty();
        }
        ECPoint child = CURVE.getG()
                .multiply(tweak)
                .add(CURVE.getCurve().decodePoint(publicKey))
                .normalize();
        if (child.isInfinity()) {
            return Optional.empty();
        }
        return Optional.of(new ExtendedPublicKey(
                network, depth + 1, fingerprint(), index, Arrays.copyOfRange(digest, 32, 64), child.getEncoded(true)));
    }

    /** The public key as an uncompressed point without its 0x04 prefix (64 bytes), as Ethereum hashes it. */
    public byte[] uncompressedPublicKey() {
        byte[] uncompressed = CURVE.getCurve().decodePoint(publicKey).getEncoded(false);
        return Arrays.copyOfRange(uncompressed, 1, uncompressed.length);
    }

    /** The same key written with the other network's version bytes ({@code xpub} ↔ {@code tpub}). */
    public ExtendedPublicKey withNetwork(KeyNetwork other) {
        return new ExtendedPublicKey(other, depth, parentFingerprint, childNumber, chainCode, publicKey);
    }

    /** The key in its Base58Check text form. */
    public String serialize() {
        ByteBuffer buffer = ByteBuffer.allocate(SERIALIZED_LENGTH)
                .putInt(network.version)
                .put((byte) depth)
                .putInt(parentFingerprint)
                .putInt(childNumber)
                .put(chainCode)
                .put(publicKey);
        return Base58Check.encode(buffer.array());
    }

    /** The first four bytes of HASH160 of the public key, as BIP-32 identifies keys. */
    public int fingerprint() {
        byte[] sha = new byte[32];
        SHA256Digest sha256 = new SHA256Digest();
        sha256.update(publicKey, 0, publicKey.length);
        sha256.doFinal(sha, 0);
        byte[] hash160 = new byte[20];
        RIPEMD160Digest ripemd = new RIPEMD160Digest();
        ripemd.update(sha, 0, sha.length);
        ripemd.doFinal(hash160, 0);
        return ByteBuffer.wrap(hash160).getInt();
    }

    /** The key material alone (chain code and public key), whatever version bytes or position it was written with. */
    public String material() {
        return HexFormat.of().formatHex(chainCode) + HexFormat.of().formatHex(publicKey);
    }

    private static byte[] hmacSha512(byte[] key, byte[] data) {
        try {
            Mac mac = Mac.getInstance("HmacSHA512");
            mac.init(new SecretKeySpec(key, "HmacSHA512"));
            return mac.doFinal(data);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A key text that is not a usable extended public key; the message is safe to show the merchant. */
    public static final class InvalidKeyText extends IllegalArgumentException {
        InvalidKeyText(String message) {
            super(message);
        }
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof ExtendedPublicKey key && serialize().equals(key.serialize());
    }

    @Override
    public int hashCode() {
        return serialize().hashCode();
    }

    @Override
    public String toString() {
        return serialize();
    }
}
