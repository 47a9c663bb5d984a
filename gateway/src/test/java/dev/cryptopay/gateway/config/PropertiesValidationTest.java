package dev.cryptopay.gateway.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cryptopay.gateway.admin.AdminProperties;
import dev.cryptopay.gateway.auth.AuthProperties;
import dev.cryptopay.gateway.identity.IdentityProperties;
import dev.cryptopay.gateway.keys.KeyRegistryProperties;
import dev.cryptopay.gateway.ratelimit.RateLimitProperties;
import dev.cryptopay.gateway.ratelimit.RouteGroup;
import dev.cryptopay.gateway.redis.GatewayRedisProperties;
import dev.cryptopay.gateway.routing.UpstreamProperties;
import dev.cryptopay.testsupport.InternalTestKeys;
import java.net.URI;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class PropertiesValidationTest {

    @Test
    void appliesTheDocumentedDefaults() {
        assertThat(new GatewayProperties(null, null).maxBodySize().toBytes()).isEqualTo(1024 * 1024);
        assertThat(new AuthProperties(false, null, 0).replayWindow()).isEqualTo(Duration.ofMinutes(10));
        assertThat(new KeyRegistryProperties(null, 0, null, null).cacheTtl()).isEqualTo(Duration.ofSeconds(5));
        assertThat(new KeyRegistryProperties(null, 0, null, null).lookupTimeout())
                .isEqualTo(Duration.ofSeconds(3));
        assertThat(new UpstreamProperties(null, null, null, null, null, null).paymentLinks())
                .isEqualTo(URI.create("http://127.0.0.1:8081"));
        GatewayRedisProperties redis = new GatewayRedisProperties(false, null, null, null);
        assertThat(redis.uri()).isEqualTo("redis://127.0.0.1:6379");
        assertThat(redis.keyPrefix()).isEqualTo("gateway:");
        RateLimitProperties limits = new RateLimitProperties(null, null, null);
        assertThat(limits.enabled()).isTrue();
        assertThat(limits.period()).isEqualTo(Duration.ofMinutes(1));
        assertThat(limits.limitOf(RouteGroup.PAYMENT_LINKS_WRITE)).isEqualTo(10);
        assertThat(limits.limitOf(RouteGroup.PAYMENT_LINKS_READ)).isEqualTo(30);
        assertThat(limits.limitOf(RouteGroup.PAYMENT_LINKS_CURRENCIES)).isEqualTo(60);
        assertThat(limits.limitOf(RouteGroup.SUBSCRIPTIONS_READ)).isEqualTo(60);
        assertThat(limits.limitOf(RouteGroup.SUBSCRIPTIONS_WRITE)).isEqualTo(30);
        assertThat(limits.limitOf(RouteGroup.PUBLIC_LINK_PAYMENT)).isEqualTo(10);
        assertThat(limits.limitOf(RouteGroup.PUBLIC_LINK_PAYMENT_PER_KEY)).isEqualTo(300);
        assertThat(limits.limitOf(RouteGroup.PUBLIC)).isEqualTo(120);
        assertThat(limits.limitOf(RouteGroup.WEBHOOKS)).isEqualTo(30);
        assertThat(limits.limitOf(RouteGroup.ACCOUNT)).isEqualTo(60);
        assertThat(limits.limitOf(RouteGroup.RECEIVING_KEY)).isEqualTo(10);
        assertThat(limits.limitOf(RouteGroup.CHECKOUT)).isEqualTo(300);
        assertThat(new AdminProperties(null, null, null, "a-long-enough-admin-token-123").port())
                .isEqualTo(8090);
    }

    @Test
    void refusesWeakSecretsAndBadValues() {
        assertThatThrownBy(() -> new IdentityProperties("not-a-key"))
                .hasMessageStartingWith("gateway.internal-auth.private-key: ");
        assertThatThrownBy(() -> new IdentityProperties(InternalTestKeys.GATEWAY_PUBLIC_KEY))
                .as("the public key, which every service holds, signs nothing")
                .hasMessageContaining("Private key is not");
        assertThatThrownBy(() -> new AdminProperties(true, null, null, "short"))
                .hasMessageContaining("gateway.admin.token");
        assertThat(new AdminProperties(false, null, null, null).enabled()).isFalse();
        assertThatThrownBy(() -> new UpstreamProperties(URI.create("ftp://x"), null, null, null, null, null))
                .hasMessageContaining("http(s)");
        assertThatThrownBy(() -> new RateLimitProperties(true, Duration.ZERO, null))
                .hasMessageContaining("period");
        assertThat(new IdentityProperties(InternalTestKeys.GATEWAY_PRIVATE_KEY).toString())
                .doesNotContain(InternalTestKeys.GATEWAY_PRIVATE_KEY.substring(8, 30));
    }
}
