package dev.cryptopay.service.production;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Configuration;

/** Starts a real (empty, non-web) application: the listener is found through spring.factories. */
class ProductionSafetyListenerTest {

    @Configuration(proxyBeanMethods = false)
    static class Empty {}

    private static ConfigurableApplicationContext start(String... args) {
        SpringApplication application = new SpringApplication(Empty.class);
        application.setWebApplicationType(WebApplicationType.NONE);
        return application.run(args);
    }

    /** The gateway's key of docker-compose.yml: committed, so anyone could sign as the gateway. */
    static final String DEV_GATEWAY_KEY = "MCowBQYDK2VwAyEA6OEPKN7sJ51jiJ7nTkxgLiYJyJ/uoxaBgaUfXW4bhjI=";

    @Test
    void productionProfileRefusesToStartWithDevelopmentKey() {
        assertThatThrownBy(() -> start(
                        "--spring.profiles.active=production",
                        "--" + ProductionSafetyTest.GATEWAY + "=" + DEV_GATEWAY_KEY,
                        "--" + ProductionSafetyTest.WATCHER + "=" + ProductionSafetyTest.WATCHER_PUBLIC))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("Refusing to start with the production profile")
                .hasMessageContaining(ProductionSafetyTest.GATEWAY + " holds a development key");
    }

    @Test
    void productionProfileRefusesPrivateWebhookAddressesAndInternalAuthOff() {
        assertThatThrownBy(() -> start(
                        "--spring.profiles.active=production",
                        "--internal-auth.enabled=false",
                        "--webhooks.delivery.allow-private-addresses=true"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("internal-auth.enabled=false")
                .hasMessageContaining("webhooks.delivery.allow-private-addresses=true");
    }

    @Test
    void productionProfileStartsWithSafeSettings() {
        try (ConfigurableApplicationContext context = start(
                "--spring.profiles.active=production",
                "--" + ProductionSafetyTest.GATEWAY + "=" + ProductionSafetyTest.GATEWAY_PUBLIC,
                // the test application.yml also names the chain watcher as a caller
                "--" + ProductionSafetyTest.WATCHER + "=" + ProductionSafetyTest.WATCHER_PUBLIC)) {
            assertThat(context.getEnvironment().getActiveProfiles()).containsExactly("production");
        }
    }

    @Test
    void otherProfilesAreNotChecked() {
        try (ConfigurableApplicationContext context =
                start("--" + ProductionSafetyTest.GATEWAY + "=" + DEV_GATEWAY_KEY)) {
            assertThat(context.isActive()).isTrue();
        }
    }
}
