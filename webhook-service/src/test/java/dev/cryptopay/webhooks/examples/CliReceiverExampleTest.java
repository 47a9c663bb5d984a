package dev.cryptopay.webhooks.examples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A receiver example run as a CLI ({@code <interpreter> <script> delivery.json [--now s] [--seen file]}, the secret in
 * {@code WEBHOOK_SECRET}) on a delivery the running service signed: the same checks for every language's example.
 */
abstract class CliReceiverExampleTest extends ReceiverExampleTestBase {

    @TempDir
    Path work;

    private record Run(int exit, String out, String err) {}

    /** Writes the delivery file and runs the example on it, with the given secret and clock. */
    private Run run(SignedDelivery delivery, byte[] body, String secret, long now, Path seen) throws Exception {
        Path file = Files.createTempFile(work, "delivery", ".json");
        Files.writeString(
                file,
                json.writeValueAsString(Map.of(
                        "headers",
                        delivery.headers(),
                        "body_base64",
                        Base64.getEncoder().encodeToString(body))));
        List<String> command = new ArrayList<>(
                List.of(interpreter(), examples(script()).toString(), file.toString(), "--now", Long.toString(now)));
        if (seen != null) {
            command.addAll(List.of("--seen", seen.toString()));
        }
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment().put("WEBHOOK_SECRET", secret);
        Path out = work.resolve("out.txt");
        Path err = work.resolve("err.txt");
        Process process =
                builder.redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        assertThat(process.waitFor(30, TimeUnit.SECONDS))
                .as(script() + " finished")
                .isTrue();
        return new Run(
                process.exitValue(),
                Files.readString(out, StandardCharsets.UTF_8),
                Files.readString(err, StandardCharsets.UTF_8));
    }

    /** The interpreter's command; fails (never skips) when it is missing. */
    abstract String interpreter();

    /** The example, relative to {@code examples/}. */
    abstract String script();

    /** Runs {@code command --version}, failing (never skipping) the test when it does not answer. */
    static String present(String command, String what) {
        try {
            Process probe = new ProcessBuilder(command, "--version")
                    .redirectErrorStream(true)
                    .start();
            String version = new String(probe.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            if (!probe.waitFor(30, TimeUnit.SECONDS) || probe.exitValue() != 0) {
                fail("`" + command + " --version` failed: " + version);
            }
            return command;
        } catch (IOException | InterruptedException e) {
            return fail(what + " (`" + command + "`) must be on the PATH to test its receiver example; this test does"
                    + " not skip without it: " + e);
        }
    }

    @Test
    void acceptsTheServicesDeliveryAndRefusesItsReplay() throws Exception {
        SignedDelivery delivery = deliver();
        Path seen = work.resolve("seen.json");

        Run first = run(delivery, delivery.body(), delivery.secret(), delivery.timestamp(), seen);
        assertThat(first.exit()).as(first.err()).isZero();
        assertThat(first.out()).contains("accepted event " + delivery.eventId());

        Run replay = run(delivery, delivery.body(), delivery.secret(), delivery.timestamp() + 10, seen);
        assertThat(replay.exit()).isEqualTo(1);
        assertThat(replay.err()).contains("refused: event " + delivery.eventId() + " was already accepted (replay)");
    }

    @Test
    void refusesATamperedBodyAnotherSecretAndAnOldTimestamp() throws Exception {
        SignedDelivery delivery = deliver();
        long at = delivery.timestamp();

        Run tampered = run(delivery, delivery.tamperedBody(), delivery.secret(), at, null);
        assertThat(tampered.exit()).isEqualTo(1);
        assertThat(tampered.err()).contains("refused: signature does not match");

        Run otherSecret = run(delivery, delivery.body(), "whsec_someoneElse", at, null);
        assertThat(otherSecret.exit()).isEqualTo(1);
        assertThat(otherSecret.err()).contains("refused: signature does not match");

        Run old = run(delivery, delivery.body(), delivery.secret(), at + 301, null);
        assertThat(old.exit()).isEqualTo(1);
        assertThat(old.err()).contains("refused: timestamp outside the tolerance of 300 s");

        Run future = run(delivery, delivery.body(), delivery.secret(), at - 301, null);
        assertThat(future.exit()).isEqualTo(1);

        Run lateButInside = run(delivery, delivery.body(), delivery.secret(), at + 300, null);
        assertThat(lateButInside.exit()).as(lateButInside.err()).isZero();
    }
}
