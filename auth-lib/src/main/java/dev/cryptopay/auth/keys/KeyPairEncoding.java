package dev.cryptopay.auth.keys;

import java.io.IOException;
import java.util.Base64;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.crypto.AsymmetricCipherKeyPair;
import org.bouncycastle.crypto.util.PrivateKeyInfoFactory;
import org.bouncycastle.crypto.util.SubjectPublicKeyInfoFactory;

/** Turns a BouncyCastle key pair into the PEM/DER text of a {@link GeneratedKeyPair}; shared by the generators. */
final class KeyPairEncoding {

    private KeyPairEncoding() {}

    static GeneratedKeyPair toGeneratedKeyPair(AsymmetricCipherKeyPair pair, String compactPrefix) {
        try {
            byte[] spki = SubjectPublicKeyInfoFactory.createSubjectPublicKeyInfo(pair.getPublic())
                    .getEncoded();
            // PKCS#8 version 1 (no embedded public key): OpenSSL 3.0 refuses the v2 form BouncyCastle writes for
            // Ed25519, and merchants must be able to sign with `openssl pkeyutl`.
            PrivateKeyInfo full = PrivateKeyInfoFactory.createPrivateKeyInfo(pair.getPrivate());
            byte[] pkcs8 = new PrivateKeyInfo(full.getPrivateKeyAlgorithm(), full.parsePrivateKey()).getEncoded("DER");
            return new GeneratedKeyPair(
                    Pem.encode("PUBLIC KEY", spki),
                    Pem.encode("PRIVATE KEY", pkcs8),
                    compactPrefix + Base64.getEncoder().encodeToString(pkcs8));
        } catch (IOException e) {
            throw new IllegalStateException("Cannot DER-encode a freshly generated key pair", e);
        }
    }
}
