package dev.cryptopay.deploychecks;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Production runs every service with the production profile (which refuses unsafe settings); the local stack not. */
class ProductionProfileTest {

    static final Path PRODUCTION = KustomizeTest.K8S.resolve("overlays/production");

    @Test
    void everyProductionServiceRunsWithTheProductionProfile() {
        for (String service : Repo.SERVICES) {
            assertThat(KustomizeTest.literals(
                            KustomizeTest.kustomization(PRODUCTION.resolve(service)), service + "-config"))
                    .as(service + " in production")
                    .containsEntry("SPRING_PROFILES_ACTIVE", "production");
            assertThat(KustomizeTest.literals(KustomizeTest.base(service), service + "-config"))
                    .as(service + "'s base (also the sandbox's)")
                    .doesNotContainKey("SPRING_PROFILES_ACTIVE");
        }
    }

    @Test
    void theLocalStackDoesNotUseTheProductionProfile() {
        for (String service : Repo.SERVICES) {
            assertThat(ComposeFileTest.env(service)).as(service).doesNotContainKey("SPRING_PROFILES_ACTIVE");
        }
    }

    @Test
    void deploymentDocsListWhatTheProductionProfileRefuses() {
        String docs = Repo.read("docs/deployment.md");
        assertThat(docs).contains("### Production configuration");
        for (String setting : List.of(
                "internal-auth.callers.gateway.public-keys",
                "internal-auth.callers.chain-watcher.public-keys",
                "chain-watcher.internal-auth.private-key",
                "internal-auth.enabled",
                "webhooks.delivery.allow-private-addresses",
                "webhooks.secret-encryption-key",
                "gateway.admin.token",
                "gateway.internal-auth.private-key",
                "gateway.redis.enabled")) {
            assertThat(docs).as(setting).contains("`" + setting);
        }
    }

    @Test
    void deploymentDocsNameTheSettingEachInternalKeyVariableBinds() {
        String docs = Repo.read("docs/deployment.md");
        for (String service : Repo.SERVICES) {
            ServiceConfiguration configuration = ServiceConfiguration.of(service);
            for (String variable : configuration.internalKeyVariables()) {
                String property = configuration.placeholderProperties.get(variable);
                assertThat(docs)
                        .as(service + ": " + variable + " binds " + property)
                        .contains("`" + property + "` (`" + variable + "`");
            }
        }
    }
}
