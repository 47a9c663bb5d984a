package dev.cryptopay.deploychecks;

import static dev.cryptopay.deploychecks.Repo.at;
import static dev.cryptopay.deploychecks.Repo.list;
import static dev.cryptopay.deploychecks.Repo.map;
import static dev.cryptopay.deploychecks.Repo.maps;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The dev chain of docker compose and what chain-watcher expects of it: the same anvil as {@code dev-chain/}, the
 * tokens set up by the launcher's code before chain-watcher starts, and one network name and chain id across
 * chain-watcher's and payment-links-service's configuration.
 */
class DevChainWiringTest {

    static final Map<String, Object> CONTAINERS = ComposeFileTest.CONTAINERS;

    /** chain-watcher's networks in its application.yml: the local dev chain. */
    static Map<String, Object> chainWatcherDevNetwork() {
        Map<String, Object> yml = Repo.yamlMap(Repo.read("chain-watcher/src/main/resources/application.yml"));
        List<Map<String, Object>> networks = maps(at(yml, "chain-watcher", "networks"));
        assertThat(networks).as("chain-watcher's default networks").hasSize(1);
        return networks.get(0);
    }

    @Test
    void composeRunsTheAnvilOfDevChainWithTheDevChainIdAndKeepsItsState() {
        String version = String.valueOf(
                at(Repo.yamlMap(Repo.read("dev-chain/package.json")), "devDependencies", "@foundry-rs/anvil"));
        assertThat(at(CONTAINERS, "anvil", "image"))
                .as("Foundry's official image of the anvil dev-chain/package.json pins")
                .isEqualTo("ghcr.io/foundry-rs/foundry:v" + version);
        assertThat(at(CONTAINERS, "anvil", "entrypoint")).isEqualTo("anvil");
        assertThat(ComposeFileTest.commandOption("anvil", "--host")).isEqualTo("0.0.0.0");
        assertThat(ComposeFileTest.commandOption("anvil", "--chain-id"))
                .isEqualTo(String.valueOf(chainWatcherDevNetwork().get("chain-id")));
        String state = ComposeFileTest.commandOption("anvil", "--state");
        assertThat(state).as("anvil --state").isNotNull();
        assertThat(list(at(CONTAINERS, "anvil", "volumes")))
                .as("the state file lies in a named volume, so it lives as long as chain-watcher's database")
                .anySatisfy(volume -> {
                    String[] parts = String.valueOf(volume).split(":");
                    assertThat(map(ComposeFileTest.COMPOSE.get("volumes"))).containsKey(parts[0]);
                    assertThat(state).startsWith(parts[1] + "/");
                });
        assertThat(ComposeFileTest.commandOption("anvil", "--state-interval")).isNotNull();
    }

    @Test
    void theTokensAreSetUpByTheLaunchersCodeBeforeChainWatcherStarts() {
        assertThat(ComposeFileTest.isOneShot("dev-chain-setup")).isTrue();
        assertThat(at(CONTAINERS, "dev-chain-setup", "build", "dockerfile"))
                .isEqualTo("deploy/docker/dev-chain-setup.Dockerfile");
        assertThat(at(CONTAINERS, "dev-chain-setup", "image")).isEqualTo("cryptopay/dev-chain-setup:local");
        String anvil = "http://anvil:" + ComposeFileTest.commandOption("anvil", "--port");
        assertThat(ComposeFileTest.env("dev-chain-setup")).containsEntry("DEV_CHAIN_RPC_URL", anvil);
        assertThat(at(CONTAINERS, "dev-chain-setup", "depends_on", "anvil", "condition"))
                .isEqualTo("service_healthy");

        Map<String, String> watcher = ComposeFileTest.env("chain-watcher");
        assertThat(watcher).containsEntry("DEV_CHAIN_RPC_URL", anvil);
        assertThat(watcher)
                .as("reports go to payment-links-service directly, not through the gateway")
                .containsEntry(
                        "PAYMENT_LINKS_URL",
                        "http://payment-links-service:"
                                + ComposeFileTest.env("payment-links-service").get("PORT"));
        assertThat(at(CONTAINERS, "chain-watcher", "depends_on", "dev-chain-setup", "condition"))
                .isEqualTo("service_completed_successfully");
    }

    @Test
    void theSetupImageRunsTheLaunchersDevChainSetupOnTheCompiledTestToken() {
        List<String> instructions = DockerfilesTest.instructions("dev-chain-setup");
        Map<String, String> args = DockerfilesTest.argDefaults(instructions);
        List<String> froms = instructions.stream()
                .filter(i -> i.startsWith("FROM "))
                .map(i -> DockerfilesTest.resolve(i, args))
                .toList();
        assertThat(froms).hasSize(2);
        assertThat(froms.get(0)).matches("FROM node:20\\.\\d+\\.\\d+-[a-z]+(-slim)? AS token");
        assertThat(froms.get(1)).matches("FROM eclipse-temurin:17\\.\\d+\\.\\d+_\\d+-jre(-[a-z]+)?");
        assertThat(instructions).contains("RUN npm ci --ignore-scripts --omit=optional && node compile.js");
        assertThat(instructions.stream().map(i -> DockerfilesTest.resolve(i, args)))
                .contains("COPY deploy/target/deploy-" + Repo.projectVersion() + "-exec.jar app.jar");
        assertThat(DockerfilesTest.user("dev-chain-setup")).matches("\\d+:\\d+");

        List<String> runtime = DockerfilesTest.finalStage(instructions);
        Matcher main = Pattern.compile("-Dloader\\.main=([\\w.]+)").matcher(runtime.get(runtime.size() - 1));
        assertThat(main.find())
                .as("the ENTRYPOINT names a main class of the launcher jar")
                .isTrue();
        assertThat(Repo.path("deploy/src/main/java/" + main.group(1).replace('.', '/') + ".java"))
                .isRegularFile();
        List<String> ignore = Repo.read("deploy/docker/dev-chain-setup.Dockerfile.dockerignore")
                .lines()
                .filter(line -> !line.isBlank() && !line.startsWith("#"))
                .toList();
        assertThat(ignore)
                .as("the build context sends the launcher jar and the token's sources, never node_modules")
                .containsExactly(
                        "*",
                        "!deploy/target/deploy-*-exec.jar",
                        "!dev-chain/package.json",
                        "!dev-chain/package-lock.json",
                        "!dev-chain/compile.js",
                        "!dev-chain/contracts/");
    }

    @Test
    void chainWatcherWatchesTheNetworkPaymentLinksServiceGivesTestModeLinks() {
        Map<String, Object> paymentLinks =
                Repo.yamlMap(Repo.read("payment-links-service/src/main/resources/application.yml"));
        Map<String, Object> testNetwork = map(at(paymentLinks, "payment-links", "test-network"));
        Map<String, Object> watched = chainWatcherDevNetwork();

        assertThat(watched.get("name"))
                .as("reports carry chain-watcher's network name; payment-links-service compares it with the link's")
                .isEqualTo(testNetwork.get("name"));
        assertThat(watched.get("chain-id")).isEqualTo(testNetwork.get("chain-id"));
        assertThat(String.valueOf(watched.get("rpc-url"))).startsWith("${DEV_CHAIN_RPC_URL:");
    }
}
