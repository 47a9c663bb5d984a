package dev.cryptopay.webhooks.production;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cryptopay.auth.keys.Ed25519KeyPairs;
import dev.cryptopay.auth.keys.SigningKey;
import dev.cryptopay.webhooks.WebhookApplication;
import java.security.SecureRandom;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringApplication;

/** webhook-service's own application.yml under the production profile: the refusal names the setting. */
class WebhookProductionProfileTest {

    /** The gateway's public key: of a pair made for this run, so not a committed one. */
    static final String SECRET = "--GATEWAY_INTERNAL_AUTH_PUBLIC_KEYS="
            + SigningKey.parse(Ed25519KeyPairs.generate(new SecureRandom()).privateKeyCompact())
                    .verificationKey()
                    .toBase64();

    @Test
    void refusesPrivateWebhookAddresses() {
        assertThatThrownBy(() -> SpringApplication.run(
                        WebhookApplication.class,
                        "--spring.profiles.active=production",
                        SECRET,
                        "--WEBHOOK_SECRET_ENCRYPTION_KEY=3q2+7wABAgMEBQYHCAkKCwwNDg8QERITFBUWFxgZGho=",
                        "--WEBHOOK_ALLOW_PRIVATE_ADDRESSES=true"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageStartingWith("Refusing to start with the production profile: "
                        + "webhooks.delivery.allow-private-addresses=true");
    }

    @Test
    void refusesTheLocalStacksEncryptionKey() {
        assertThatThrownBy(() -> SpringApplication.run(
                        WebhookApplication.class,
                        "--spring.profiles.active=production",
                        SECRET,
                        "--WEBHOOK_SECRET_ENCRYPTION_KEY=ZGV2LW9ubHktTk9ULVNFQ1JFVC13ZWJob29rLWtleSE="))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("webhooks.secret-encryption-key is a development value");
    }

    @Test
    void refusesInternalAuthOff() {
        assertThatThrownBy(() -> SpringApplication.run(
                        WebhookApplication.class,
                        "--spring.profiles.active=production",
                        "--internal-auth.enabled=false",
                        "--WEBHOOK_SECRET_ENCRYPTION_KEY=3q2+7wABAgMEBQYHCAkKCwwNDg8QERITFBUWFxgZGho="))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("internal-auth.enabled=false");
    }
}
