package dev.cryptopay.gateway.production;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cryptopay.auth.keys.Ed25519KeyPairs;
import dev.cryptopay.gateway.GatewayApplication;
import java.security.SecureRandom;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringApplication;

/** The gateway's own application.yml under the production profile: the refusal names the gateway's settings. */
class GatewayProductionProfileTest {

    @Test
    void refusesDevelopmentAdminTokenAndNoRedis() {
        assertThatThrownBy(() -> SpringApplication.run(
                        GatewayApplication.class,
                        "--spring.profiles.active=production",
                        "--GATEWAY_INTERNAL_AUTH_PRIVATE_KEY="
                                + "Ed25519:MC4CAQAwBQYDK2VwBCIEIAiDSnEHJ462rL1uPq1uMk1mcrKmbahJKrTpILuAFnh+",
                        "--GATEWAY_ADMIN_TOKEN=dev-only-admin-token-change-me",
                        "--GATEWAY_REDIS_ENABLED=false"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("gateway.internal-auth.private-key is a development key")
                .hasMessageContaining("gateway.admin.token is a development value")
                .hasMessageContaining("gateway.redis.enabled must be true")
                .hasMessageNotContaining("internal-auth.enabled=false");
    }

    @Test
    void refusesShortAdminToken() {
        assertThatThrownBy(() -> SpringApplication.run(
                        GatewayApplication.class,
                        "--spring.profiles.active=production",
                        "--GATEWAY_INTERNAL_AUTH_PRIVATE_KEY="
                                + Ed25519KeyPairs.generate(new SecureRandom()).privateKeyCompact(),
                        "--GATEWAY_ADMIN_TOKEN=Qm3Kv8Tz1Lp6",
                        "--GATEWAY_REDIS_ENABLED=true"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("Refusing to start with the production profile: gateway.admin.token is shorter than 24 "
                        + "bytes (docs/deployment.md, Production configuration)");
    }
}
