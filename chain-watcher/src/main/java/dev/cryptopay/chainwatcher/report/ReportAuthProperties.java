package dev.cryptopay.chainwatcher.report;

import dev.cryptopay.auth.internal.InternalCallers;
import dev.cryptopay.auth.internal.InternalTokenSigner;
import jakarta.validation.constraints.NotBlank;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.validation.annotation.Validated;

/**
 * The chain watcher's own private key as the internal caller {@code chain-watcher}: it signs the token of every
 * report. The services it reports to, payment-links-service and subscriptions-service, hold only its public key
 * ({@code internal-auth.callers.chain-watcher.public-keys}); no one else holds the private key, and the chain watcher
 * holds no other caller's (not the gateway's).
 *
 * @param privateKey an Ed25519 private key ({@code Ed25519:<Base64 PKCS#8 DER>}, bare Base64 PKCS#8 DER or PEM).
 *                   Required: the watcher does not start without it, nor with anything but an Ed25519 private key.
 */
@Validated
@ConfigurationProperties("chain-watcher.internal-auth")
public record ReportAuthProperties(@NotBlank String privateKey) {

    public ReportAuthProperties {
        if (privateKey != null && !privateKey.isBlank()) {
            signer(privateKey);
        }
    }

    /** The signer of the watcher's tokens. */
    InternalTokenSigner signer() {
        return signer(privateKey);
    }

    private static InternalTokenSigner signer(String privateKey) {
        try {
            return InternalTokenSigner.parse(InternalCallers.CHAIN_WATCHER, privateKey);
        } catch (IllegalArgumentException notAKey) {
            throw new IllegalArgumentException(
                    "chain-watcher.internal-auth.private-key: " + notAKey.getMessage(), notAKey);
        }
    }

    /** Hides the key from logs and failure analysis output. */
    @Override
    public String toString() {
        return "ReportAuthProperties[privateKey=<redacted>]";
    }
}
