package dev.cryptopay.webhooks.production;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cryptopay.webhooks.WebhookApplication;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringApplication;

/** webhook-service's own application.yml under the production profile: the refusal names the setting. */
class WebhookProductionProfileTest {

    static final String SECRET = "--INTERNAL_AUTH_SECRET=Zq0b9Xr4Lm2Vt7Pk1Hs8Jd3Wf6Nc5Ya0Ue9Ri4Oq";

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
