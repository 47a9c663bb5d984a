package dev.cryptopay.gateway.identity;

import dev.cryptopay.auth.internal.InternalCallers;
import dev.cryptopay.auth.internal.InternalTokenSigner;
import jakarta.validation.constraints.NotBlank;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.validation.annotation.Validated;

/**
 * The gateway's own private key as the internal caller {@code gateway}, which signs the {@code X-Internal-Auth} token
 * on every forwarded request.
 *
 * @param privateKey an Ed25519 private key ({@code Ed25519:<Base64 PKCS#8 DER>}, bare Base64 PKCS#8 DER or PEM). Only
 *                   the gateway holds it; the services hold its public key in
 *                   {@code internal-auth.callers.gateway.public-keys}. Required: the gateway does not start without
 *                   it, nor with anything but an Ed25519 private key.
 */
@Validated
@ConfigurationProperties("gateway.internal-auth")
public record IdentityProperties(@NotBlank String privateKey) {

    public IdentityProperties {
        if (privateKey != null && !privateKey.isBlank()) {
            signer(privateKey);
        }
    }

    /** The signer of the gateway's tokens. */
    public InternalTokenSigner signer() {
        return signer(privateKey);
    }

    private static InternalTokenSigner signer(String privateKey) {
        try {
            return InternalTokenSigner.parse(InternalCallers.GATEWAY, privateKey);
        } catch (IllegalArgumentException notAKey) {
            throw new IllegalArgumentException("gateway.internal-auth.private-key: " + notAKey.getMessage(), notAKey);
        }
    }

    /** Hides the key from logs and failure analysis output. */
    @Override
    public String toString() {
        return "IdentityProperties[privateKey=<redacted>]";
    }
}
