package dev.cryptopay.gateway.production;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cryptopay.gateway.GatewayApplication;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringApplication;

/** The gateway's own application.yml under the production profile: the refusal names the gateway's settings. */
class GatewayProductionProfileTest {

    @Test
    void refusesDevelopmentAdminTokenAndNoRedis() {
        assertThatThrownBy(() -> SpringApplication.run(
                        GatewayApplication.class,
                        "--spring.profiles.active=production",
                        "--INTERNAL_AUTH_SECRET=dev-only-internal-auth-secret-not-for-production",
                        "--GATEWAY_ADMIN_TOKEN=dev-only-admin-token-change-me",
                        "--GATEWAY_REDIS_ENABLED=false"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("gateway.internal-auth.secret is a development value")
                .hasMessageContaining("gateway.admin.token is a development value")
                .hasMessageContaining("gateway.redis.enabled must be true")
                .hasMessageNotContaining("internal-auth.enabled=false");
    }

    @Test
    void refusesShortAdminToken() {
        assertThatThrownBy(() -> SpringApplication.run(
                        GatewayApplication.class,
                        "--spring.profiles.active=production",
                        "--INTERNAL_AUTH_SECRET=Zq0b9Xr4Lm2Vt7Pk1Hs8Jd3Wf6Nc5Ya0Ue9Ri4Oq",
                        "--GATEWAY_ADMIN_TOKEN=Qm3Kv8Tz1Lp6",
                        "--GATEWAY_REDIS_ENABLED=true"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("Refusing to start with the production profile: gateway.admin.token is shorter than 24 "
                        + "bytes (docs/deployment.md, Production configuration)");
    }
}
