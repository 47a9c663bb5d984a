package dev.cryptopay.auth.signature;

import dev.cryptopay.auth.keys.SigningKey;
import java.util.Base64;

/** Produces the {@code X-API-Signature} header value; what merchant SDKs and our own test clients call. */
public final class RequestSigner {

    private RequestSigner() {}

    /**
     * Signs the canonical request bytes with the key's algorithm (Ed25519, or RSA-PSS-SHA256 with a
     * 32-byte salt) and returns standard padded Base64 of the raw signature.
     */
    public static String sign(SigningKey key, CanonicalRequest request) {
        return Base64.getEncoder().encodeToString(key.sign(request.toBytes()));
    }
}
