package dev.cryptopay.auth.bip32;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cryptopay.auth.bip32.ExtendedPublicKey.InvalidKeyText;
import dev.cryptopay.auth.bip32.ExtendedPublicKey.KeyNetwork;
import java.math.BigInteger;
import java.util.Arrays;
import org.bouncycastle.crypto.ec.CustomNamedCurves;
import org.junit.jupiter.api.Test;

/**
 * Public derivation against the published BIP-32 test vectors (each serialized child, so depth, parent fingerprint,
 * child number, chain code and key are all compared), and every way a key text can be wrong. Addresses are checked
 * against ethers and web3j where they are made (payment-links-service).
 */
class ExtendedPublicKeyTest {

    // BIP-32 test vector 1
    private static final String V1_M_0H =
            "xpub68Gmy5EdvgibQVfPdqkBBCHxA5htiqg55crXYuXoQRKfDBFA1WEjWgP6LHhwBZeNK1VTsfTFUHCdrfp1bgwQ9xv5ski8PX9rL2dZXvgGDnw";
    private static final String V1_M_0H_1 =
            "xpub6ASuArnXKPbfEwhqN6e3mwBcDTgzisQN1wXN9BJcM47sSikHjJf3UFHKkNAWbWMiGj7Wf5uMash7SyYq527Hqck2AxYysAA7xmALppuCkwQ";
    private static final String V1_M_0H_1_2H =
            "xpub6D4BDPcP2GT577Vvch3R8wDkScZWzQzMMUm3PWbmWvVJrZwQY4VUNgqFJPMM3No2dFDFGTsxxpG5uJh7n7epu4trkrX7x7DogT5Uv6fcLW5";
    private static final String V1_M_0H_1_2H_2 =
            "xpub6FHa3pjLCk84BayeJxFW2SP4XRrFd1JYnxeLeU8EqN3vDfZmbqBqaGJAyiLjTAwm6ZLRQUMv1ZACTj37sR62cfN7fe5JnJ7dh8zL4fiyLHV";
    private static final String V1_M_0H_1_2H_2_1000000000 =
            "xpub6H1LXWLaKsWFhvm6RVpEL9P4KfRZSW7abD2ttkWP3SSQvnyA8FSVqNTEcYFgJS2UaFcxupHiYkro49S8yGasTvXEYBVPamhGW6cFJodrTHy";
    private static final String V1_M_PRIVATE =
            "xprv9s21ZrQH143K3QTDL4LXw2F7HEK3wJUD2nW2nRk4stbPy6cq3jPPqjiChkVvvNKmPGJxWUtg6LnF5kejMRNNU3TGtRBeJgk33yuGBxrMPHi";
    // BIP-32 test vector 2
    private static final String V2_M =
            "xpub661MyMwAqRbcFW31YEwpkMuc5THy2PSt5bDMsktWQcFF8syAmRUapSCGu8ED9W6oDMSgv6Zz8idoc4a6mr8BDzTJY47LJhkJ8UB7WEGuduB";
    private static final String V2_M_0 =
            "xpub69H7F5d8KSRgmmdJg2KhpAK8SR3DjMwAdkxj3ZuxV27CprR9LgpeyGmXUbC6wb7ERfvrnKZjXoUmmDznezpbZb7ap6r1D3tgFxHmwMkQTPH";
    private static final String V2_M_0_2147483647H_1_2147483646H =
            "xpub6ERApfZwUNrhLCkDtcHTcxd75RbzS1ed54G1LkBUHQVHQKqhMkhgbmJbZRkrgZw4koxb5JaHWkY4ALHY2grBGRjaDMzQLcgJvLJuZZvRcEL";
    private static final String V2_M_0_2147483647H_1_2147483646H_2 =
            "xpub6FnCn6nSzZAw5Tw7cgR9bi15UV96gLZhjDstkXXxvCLsUXBGXPdSnLFbdpq8p9HmGsApME5hQTZ3emM2rnY5agb9rXpVGyy3bdW6EEgAtqt";

    @Test
    void derivesThePublishedPublicChildren() {
        assertThat(child(V1_M_0H, 1)).isEqualTo(V1_M_0H_1);
        assertThat(child(V1_M_0H_1_2H, 2)).isEqualTo(V1_M_0H_1_2H_2);
        assertThat(child(V1_M_0H_1_2H_2, 1_000_000_000)).isEqualTo(V1_M_0H_1_2H_2_1000000000);
        assertThat(child(V2_M, 0)).isEqualTo(V2_M_0);
        assertThat(child(V2_M_0_2147483647H_1_2147483646H, 2)).isEqualTo(V2_M_0_2147483647H_1_2147483646H_2);
    }

    @Test
    void readsWhatItWrites() {
        ExtendedPublicKey key = ExtendedPublicKey.parse(V1_M_0H_1_2H_2);
        assertThat(key.network()).isEqualTo(KeyNetwork.MAINNET);
        assertThat(key.depth()).isEqualTo(4);
        assertThat(key.childNumber()).isEqualTo(2);
        assertThat(key.serialize()).isEqualTo(V1_M_0H_1_2H_2);
        assertThat(ExtendedPublicKey.parse("  " + V1_M_0H_1_2H_2 + "\n")).isEqualTo(key);
    }

    @Test
    void acceptsTestNetworkKeysAndKeepsTheirVersion() {
        byte[] payload = Base58Check.decode(V1_M_0H_1_2H);
        payload[0] = 0x04;
        payload[1] = 0x35;
        payload[2] = (byte) 0x87;
        payload[3] = (byte) 0xCF;
        String tpub = Base58Check.encode(payload);
        assertThat(tpub).startsWith("tpub");
        ExtendedPublicKey key = ExtendedPublicKey.parse(tpub);
        assertThat(key.network()).isEqualTo(KeyNetwork.TESTNET);
        assertThat(key.material())
                .isEqualTo(ExtendedPublicKey.parse(V1_M_0H_1_2H).material());
        assertThat(key.child(0).orElseThrow().serialize()).startsWith("tpub");
    }

    @Test
    void refusesPrivateKeysWithAWarning() {
        assertThatThrownBy(() -> ExtendedPublicKey.parse(V1_M_PRIVATE))
                .isInstanceOf(InvalidKeyText.class)
                .hasMessageContaining("extended private key");
    }

    @Test
    void refusesMistypedAndMalformedText() {
        String mistyped = V1_M_0H.substring(0, 20) + (V1_M_0H.charAt(20) == 'a' ? 'b' : 'a') + V1_M_0H.substring(21);
        assertRefused(mistyped, "checksum");
        assertRefused(V1_M_0H.replace('9', '0'), "not Base58");
        assertRefused("", "wrong length");
        assertRefused("x".repeat(201), "wrong length");
        assertRefused(Base58Check.encode(Arrays.copyOf(Base58Check.decode(V1_M_0H), 77)), "wrong length");
        assertRefused("0x" + "ab".repeat(32), "not Base58");
    }

    @Test
    void refusesOtherVersionsAndMalformedKeys() {
        byte[] zpub = Base58Check.decode(V1_M_0H);
        zpub[0] = 0x04;
        zpub[1] = (byte) 0xB2;
        zpub[2] = 0x47;
        zpub[3] = 0x46;
        assertRefused(Base58Check.encode(zpub), "starting with xpub");

        byte[] orphan = Base58Check.decode(V2_M);
        orphan[5] = 1; // a parent fingerprint on a depth-0 key
        assertRefused(Base58Check.encode(orphan), "cannot have a parent");

        byte[] uncompressedPrefix = Base58Check.decode(V2_M);
        uncompressedPrefix[45] = 0x04;
        assertRefused(Base58Check.encode(uncompressedPrefix), "not a compressed point");

        byte[] offCurve = Base58Check.decode(V2_M);
        System.arraycopy(xWithoutAPoint(), 0, offCurve, 46, 32);
        assertRefused(Base58Check.encode(offCurve), "not a point on secp256k1");
    }

    @Test
    void derivesOnlyNonHardenedChildren() {
        ExtendedPublicKey key = ExtendedPublicKey.parse(V2_M);
        assertThatThrownBy(() -> key.child(-1)).isInstanceOf(IllegalArgumentException.class);
    }

    private static String child(String parent, int index) {
        return ExtendedPublicKey.parse(parent).child(index).orElseThrow().serialize();
    }

    private static void assertRefused(String text, String reason) {
        assertThatThrownBy(() -> ExtendedPublicKey.parse(text))
                .isInstanceOf(InvalidKeyText.class)
                .hasMessageContaining(reason);
    }

    /** The smallest x coordinate for which secp256k1 has no point (y² = x³ + 7 has no root). */
    private static byte[] xWithoutAPoint() {
        var curve = CustomNamedCurves.getByName("secp256k1").getCurve();
        for (int x = 1; ; x++) {
            byte[] encoded = new byte[33];
            encoded[0] = 0x02;
            byte[] value = BigInteger.valueOf(x).toByteArray();
            System.arraycopy(value, 0, encoded, 33 - value.length, value.length);
            try {
                curve.decodePoint(encoded);
            } catch (IllegalArgumentException notOnCurve) {
                return Arrays.copyOfRange(encoded, 1, 33);
            }
        }
    }
}
