package dev.cryptopay.auth.keys;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Base64;
import java.util.HexFormat;
import java.util.stream.Stream;
import org.bouncycastle.crypto.params.Ed25519PrivateKeyParameters;
import org.bouncycastle.crypto.params.Ed25519PublicKeyParameters;
import org.bouncycastle.crypto.util.PrivateKeyInfoFactory;
import org.bouncycastle.crypto.util.SubjectPublicKeyInfoFactory;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** RFC 8032 section 7.1 test vectors, run through the same parsing path merchants' keys take. */
class Ed25519Rfc8032VectorsTest {

    private static final HexFormat HEX = HexFormat.of();

    record Vector(String name, String secretKey, String publicKey, String message, String signature) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Arguments> vectors() {
        return Stream.of(
                        new Vector(
                                "TEST 1",
                                "9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60",
                                "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a",
                                "",
                                "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b"),
                        new Vector(
                                "TEST 2",
                                "4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb",
                                "3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c",
                                "72",
                                "92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00"),
                        new Vector(
                                "TEST 3",
                                "c5aa8df43f9f837bedb7442f31dcb7b166d38535076f094b85ce3a2e0b4458f7",
                                "fc51cd8e6218a1a38da47ed00230f0580816ed13ba3303ac5deb911548908025",
                                "af82",
                                "6291d657deec24024827e69c3abe01a30ce548a284743a445e3680d7db5ac3ac18ff9b538d16f290ae67f760984dc6594a7c15e9716ed28dc027beceea1ec40a"),
                        new Vector(
                                "TEST SHA(abc)",
                                "833fe62409237b9d62ec77587520911e9a759cec1d19755b7da901b96dca3d42",
                                "ec172b93ad5e563bf4932c70e1245034c35467ef2efd4d64ebf819683467e2bf",
                                "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a"
                                        + "2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f",
                                "dc2a4459e7369633a52b1bf277839a00201009a3efbf3ecb69bea2186c26b589"
                                        + "09351fc9ac90b3ecfdfbc7c66431e0303dca179c138ac17ad9bef1177331a704"))
                .map(Arguments::of);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("vectors")
    void signsExactlyTheRfcSignature(Vector vector) {
        SigningKey key = signingKeyFromRawSecret(vector.secretKey());

        assertThat(HEX.formatHex(key.sign(HEX.parseHex(vector.message())))).isEqualTo(vector.signature());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("vectors")
    void derivesTheRfcPublicKey(Vector vector) {
        SigningKey key = signingKeyFromRawSecret(vector.secretKey());

        assertThat(key.algorithm()).isEqualTo(KeyAlgorithm.ED25519);
        assertThat(key.verificationKey()).isEqualTo(verificationKeyFromRawPublic(vector.publicKey()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("vectors")
    void verifiesTheRfcSignature(Vector vector) {
        VerificationKey key = verificationKeyFromRawPublic(vector.publicKey());

        assertThat(key.verify(HEX.parseHex(vector.message()), HEX.parseHex(vector.signature())))
                .isTrue();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("vectors")
    void rejectsTheRfcSignatureOverATamperedMessage(Vector vector) {
        VerificationKey key = verificationKeyFromRawPublic(vector.publicKey());
        byte[] tampered = appendOrFlip(HEX.parseHex(vector.message()));

        assertThat(key.verify(tampered, HEX.parseHex(vector.signature()))).isFalse();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("vectors")
    void rejectsATamperedRfcSignature(Vector vector) {
        VerificationKey key = verificationKeyFromRawPublic(vector.publicKey());
        byte[] message = HEX.parseHex(vector.message());
        byte[] flippedInR = HEX.parseHex(vector.signature());
        flippedInR[0] ^= 0x01;
        byte[] flippedInS = HEX.parseHex(vector.signature());
        flippedInS[40] ^= 0x01;

        assertThat(key.verify(message, flippedInR)).isFalse();
        assertThat(key.verify(message, flippedInS)).isFalse();
    }

    private static byte[] appendOrFlip(byte[] message) {
        if (message.length == 0) {
            return new byte[] {0};
        }
        byte[] copy = message.clone();
        copy[copy.length - 1] ^= 0x01;
        return copy;
    }

    /** Wraps the RFC's raw 32-byte secret in PKCS#8 so it goes through {@link SigningKey#parse}. */
    private static SigningKey signingKeyFromRawSecret(String secretHex) {
        try {
            Ed25519PrivateKeyParameters raw = new Ed25519PrivateKeyParameters(HEX.parseHex(secretHex));
            byte[] pkcs8 = PrivateKeyInfoFactory.createPrivateKeyInfo(raw).getEncoded();
            return SigningKey.parse(Base64.getEncoder().encodeToString(pkcs8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Wraps the RFC's raw 32-byte public key in SPKI so it goes through {@link VerificationKey#parse}. */
    private static VerificationKey verificationKeyFromRawPublic(String publicHex) {
        try {
            Ed25519PublicKeyParameters raw = new Ed25519PublicKeyParameters(HEX.parseHex(publicHex));
            byte[] spki =
                    SubjectPublicKeyInfoFactory.createSubjectPublicKeyInfo(raw).getEncoded();
            return VerificationKey.parse(Base64.getEncoder().encodeToString(spki));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
