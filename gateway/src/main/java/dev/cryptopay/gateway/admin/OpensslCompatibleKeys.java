package dev.cryptopay.gateway.admin;

import dev.cryptopay.auth.keys.GeneratedKeyPair;
import dev.cryptopay.auth.keys.SigningKey;
import java.io.IOException;
import java.util.Base64;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;

/**
 * Re-encodes a generated private key as PKCS#8 version 1 (algorithm + private key only).
 *
 * <p>auth-lib writes Ed25519 private keys as PKCS#8 v2 (RFC 5958 OneAsymmetricKey, public key attached), which
 * OpenSSL 3.0 cannot read ("unsupported"); the keys we hand out must work with {@code openssl pkeyutl} as documented,
 * so we drop the optional public key. The key material is unchanged and auth-lib parses both forms.
 */
final class OpensslCompatibleKeys {

    private static final String PEM_BEGIN = "-----BEGIN PRIVATE KEY-----\n";
    private static final String PEM_END = "-----END PRIVATE KEY-----\n";

    private OpensslCompatibleKeys() {
    }

    static GeneratedKeyPair of(GeneratedKeyPair pair) {
        try {
            String body = pair.privateKeyPem().replace("-----BEGIN PRIVATE KEY-----", "")
                    .replace("-----END PRIVATE KEY-----", "").replaceAll("\\s", "");
            PrivateKeyInfo info = PrivateKeyInfo.getInstance(Base64.getDecoder().decode(body));
            byte[] v1 = new PrivateKeyInfo(info.getPrivateKeyAlgorithm(), info.parsePrivateKey()).getEncoded("DER");
            String base64 = Base64.getEncoder().encodeToString(v1);
            StringBuilder pem = new StringBuilder(PEM_BEGIN);
            for (int i = 0; i < base64.length(); i += 64) {
                pem.append(base64, i, Math.min(base64.length(), i + 64)).append('\n');
            }
            pem.append(PEM_END);
            String compact = pair.privateKeyCompact().startsWith(SigningKey.ED25519_COMPACT_PREFIX)
                    ? SigningKey.ED25519_COMPACT_PREFIX + base64 : base64;
            return new GeneratedKeyPair(pair.publicKeyPem(), pem.toString(), compact);
        } catch (IOException | IllegalArgumentException e) {
            throw new IllegalStateException("Could not re-encode a freshly generated private key", e);
        }
    }
}
