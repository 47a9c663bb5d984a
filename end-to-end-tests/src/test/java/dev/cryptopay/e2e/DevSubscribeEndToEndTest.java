package dev.cryptopay.e2e;

import static dev.cryptopay.e2e.SuiteStack.JSON;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cryptopay.deploy.EnvFile;
import dev.cryptopay.deploy.LocalStack;
import dev.cryptopay.deploy.chain.CustomerAccount;
import dev.cryptopay.testsupport.chain.DevChain;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.web3j.protocol.core.methods.response.TransactionReceipt;
import tools.jackson.databind.JsonNode;

/**
 * {@code ./dev-subscribe} (the repository root's script, {@code dev-chain/dev-subscribe.js}) run as a developer runs
 * it, as its own process with the suite stack's {@code stack.env}: the launcher's invitation of the dev customer to its
 * example plan is subscribed on the dev chain and the merchant API shows the link active with the customer's wallet;
 * the same invitation again is refused with the API's words; a URL that is no invitation and a missing
 * {@code stack.env} are set-up problems.
 */
class DevSubscribeEndToEndTest {

    /** Tests run in end-to-end-tests/; the script is at the repository root. */
    private static final Path COMMAND =
            Path.of("..", "dev-subscribe").toAbsolutePath().normalize();

    @TempDir
    Path temp;

    private record Run(int status, String out, String err) {}

    @Test
    void theCustomerSubscribesToTheLaunchersExampleInvitationOnceAndASecondRunIsRefused() throws Exception {
        LocalStack stack = SuiteStack.get();
        DevChain chain = stack.devChain().orElseThrow(() -> new AssertionError("the suite runs with its dev chain"));
        Map<String, String> env = EnvFile.read(stack.stackEnvFile());
        String invitation = env.get("EXAMPLE_INVITATION_URL");
        assertThat(invitation)
                .as("the launcher invites the dev customer to its example plan")
                .startsWith(stack.gatewayUrl() + "/checkout/subscribe?subscriber_id=");

        Run first = run(chain, Map.of("STACK_ENV", stack.stackEnvFile().toString()), invitation);

        assertThat(first.status()).as(first.err()).isZero();
        assertThat(first.err()).contains("subscribing " + CustomerAccount.ADDRESS + " to \"Example monthly plan\"");
        JsonNode printed = JSON.readTree(first.out());
        String linkId = printed.get("subscription_link_id").asString();
        JsonNode link = JSON.readTree(
                stack.client().get("/subscriptions/link/" + linkId).body());
        assertThat(link.get("is_active").asBoolean()).as(link.toString()).isTrue();
        assertThat(link.get("chain_status").asString()).isEqualTo("subscribed");
        assertThat(link.get("wallet_address").asString()).isEqualTo(CustomerAccount.ADDRESS);
        assertThat(link.get("subscription_plan_id").asString()).isEqualTo(env.get("EXAMPLE_PLAN_ID"));
        assertThat(link.get("paid_periods").asInt())
                .as("the subscribe transaction paid the first period")
                .isEqualTo(1);
        TransactionReceipt subscribed =
                chain.receipt(printed.get("subscribe_hash").asString()).orElseThrow();
        assertThat(subscribed.getFrom()).isEqualToIgnoringCase(CustomerAccount.ADDRESS);
        assertThat(subscribed.isStatusOK()).isTrue();

        Run again = run(chain, Map.of("STACK_ENV", stack.stackEnvFile().toString()), invitation);

        assertThat(again.status()).as(again.err()).isEqualTo(1);
        assertThat(again.err())
                .contains("the invitation cannot be used: This subscriber is already enrolled (HTTP 409 "
                        + "already_enrolled)");
        assertThat(again.out()).isEmpty();
    }

    @Test
    void aUrlThatIsNoInvitationAndAMissingStackEnvAreSetUpProblems() throws Exception {
        LocalStack stack = SuiteStack.get();
        DevChain chain = stack.devChain().orElseThrow(() -> new AssertionError("the suite runs with its dev chain"));
        Map<String, String> env = Map.of("STACK_ENV", stack.stackEnvFile().toString());

        Run payment = run(chain, env, stack.gatewayUrl() + "/checkout/payment_link?payment_id=x");
        assertThat(payment.status()).isEqualTo(2);
        assertThat(payment.err()).contains("not an invitation's subscription_link_url");

        Run unknown = run(
                chain,
                env,
                stack.gatewayUrl() + "/checkout/subscribe?subscriber_id=00000000-0000-4000-8000-000000000000");
        assertThat(unknown.status()).isEqualTo(2);
        assertThat(unknown.err()).contains("Subscriber not found (HTTP 404");

        Run noStack = run(
                chain,
                Map.of("STACK_ENV", temp.resolve("missing.env").toString()),
                stack.gatewayUrl() + "/checkout/subscribe?subscriber_id=00000000-0000-4000-8000-000000000000");
        assertThat(noStack.status()).isEqualTo(2);
        assertThat(noStack.err()).contains("missing.env does not exist. Start the stack with ./run-local first");
    }

    /**
     * Runs the command to its end (at most 2 minutes). The suite's chain-watcher waits for two confirmations and the
     * dev chain mines only on transactions, so a block is mined every half second meanwhile.
     */
    private Run run(DevChain chain, Map<String, String> env, String... arguments)
            throws IOException, InterruptedException {
        Path out = Files.createTempFile(temp, "dev-subscribe", ".out");
        Path err = Files.createTempFile(temp, "dev-subscribe", ".err");
        List<String> command = new ArrayList<>(List.of(COMMAND.toString()));
        command.addAll(List.of(arguments));
        ProcessBuilder builder =
                new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile());
        builder.environment().putAll(env);
        ScheduledExecutorService miner = Executors.newSingleThreadScheduledExecutor();
        try {
            miner.scheduleWithFixedDelay(() -> chain.mine(1), 500, 500, TimeUnit.MILLISECONDS);
            Process process = builder.start();
            assertThat(process.waitFor(2, TimeUnit.MINUTES))
                    .as("./dev-subscribe ends within 2 minutes")
                    .isTrue();
            return new Run(process.exitValue(), Files.readString(out), Files.readString(err));
        } finally {
            miner.shutdownNow();
        }
    }
}
