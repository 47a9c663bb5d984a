package dev.cryptopay.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * A machine without Node.js and npm (the check answers so; nothing is uninstalled): the stack runs everything but the
 * dev chain and chain-watcher, says in one line what to install, and the sandbox wallet still receives links.
 */
class StackWithoutDevChainTest {

    @Test
    void everythingElseRunsAndOneLineSaysWhatToInstall() throws Exception {
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        StackOptions options = StackOptions.forTests().devChain(true);
        options.devChainTools = () -> Optional.of("Node.js 20 and npm (no node, no npm on the PATH)");
        options.out = StackTestSupport.teeToStdout(printed);

        try (LocalStack stack = LocalStack.start(options)) {
            String output = printed.toString(StandardCharsets.UTF_8);
            assertThat(output.lines().filter(line -> line.contains("Node.js")))
                    .containsExactly("[stack] no dev chain and no chain-watcher: they need Node.js 20 and npm (no "
                            + "node, no npm on the PATH). Install Node.js 20 (it comes with npm) and start again;"
                            + " everything else runs without them.");
            assertThat(output)
                    .containsPattern("\\[stack\\] gateway ready in")
                    .containsPattern("\\[stack\\] webhook-service ready in")
                    .doesNotContain("chain-watcher ready")
                    .doesNotContain("dev chain (anvil) ready")
                    .contains("Dev chain    not running (see above)")
                    .doesNotContain("./dev-pay")
                    .doesNotContain("./dev-subscribe");
            assertThat(stack.devChain()).isEmpty();
            assertThatThrownBy(() -> stack.isRunning("chain-watcher"))
                    .hasMessage("the stack has not started chain-watcher");
            assertThat(EnvFile.read(stack.files.stackEnvFile))
                    .containsKeys("BASE_URL", "API_KEY", "SANDBOX_WALLET_ADDRESS", "SANDBOX_WALLET_XPUB")
                    .doesNotContainKeys("DEV_CHAIN_RPC_URL", "CUSTOMER_PRIVATE_KEY", "EXAMPLE_INVITATION_URL");

            HttpResponse<String> link = stack.client()
                    .post("/payment_links", "{\"payment_name\":\"Tea\",\"amount\":3,\"currency\":\"USDC\"}");
            assertThat(link.statusCode()).as(link.body()).isEqualTo(201);
            assertThat(link.body())
                    .as("the wallet is registered with or without a chain to pay on")
                    .contains("\"deposit_address\":\""
                            + EnvFile.read(stack.files.stackEnvFile).get("SANDBOX_WALLET_ADDRESS") + "\"");
            assertThat(ProcessHandle.current()
                            .descendants()
                            .map(p -> p.info().commandLine().orElse("")))
                    .as("no anvil of this stack (other tests' dev chains may run in this JVM)")
                    .noneMatch(command -> command.contains("anvil") && command.contains(stack.files.root.toString()));
        }
    }
}
