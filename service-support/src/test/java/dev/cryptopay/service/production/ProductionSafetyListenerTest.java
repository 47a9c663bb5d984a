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

    @Test
    void productionProfileRefusesToStartWithDevelopmentSecret() {
        assertThatThrownBy(() -> start(
                        "--spring.profiles.active=production",
                        "--internal-auth.secret=dev-only-internal-auth-secret-not-for-production"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("Refusing to start with the production profile")
                .hasMessageContaining("internal-auth.secret is a development value");
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
                "--internal-auth.secret=" + ProductionSafetyTest.SECRET,
                // the test application.yml also names the chain watcher as a caller
                "--" + ProductionSafetyTest.WATCHER + "=" + ProductionSafetyTest.WATCHER_SECRET)) {
            assertThat(context.getEnvironment().getActiveProfiles()).containsExactly("production");
        }
    }

    @Test
    void otherProfilesAreNotChecked() {
        try (ConfigurableApplicationContext context =
                start("--internal-auth.secret=dev-only-internal-auth-secret-not-for-production")) {
            assertThat(context.isActive()).isTrue();
        }
    }
}
