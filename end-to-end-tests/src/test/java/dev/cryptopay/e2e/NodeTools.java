package dev.cryptopay.e2e;

import static dev.cryptopay.e2e.SuiteStack.JSON;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cryptopay.deploy.sandbox.SandboxWallet;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.web3j.crypto.MnemonicUtils;
import tools.jackson.databind.JsonNode;

/**
 * What the tests that drive Node.js tools share: their packages, the browser walks (the scripts in {@code browser/})
 * run to the JSON line they print, the checks every dashboard walk's report gets, and a fresh receiving key for a new
 * merchant.
 */
final class NodeTools {

    /** The browser walks' folder: their scripts and their packages (playwright-core, axe-core). */
    private static final Path BROWSER = Path.of("browser");

    private NodeTools() {}

    /**
     * {@code npm ci --ignore-scripts} in {@code folder} once, when its committed lock file's package {@code marker}
     * is missing from {@code node_modules}.
     */
    static void installPackages(Path folder, String marker) throws IOException, InterruptedException {
        if (Files.isDirectory(folder.resolve("node_modules").resolve(marker))) {
            return;
        }
        // Its output goes to a file: writing to this JVM's own stdout would corrupt the test runner's channel.
        Path log = Files.createTempFile("npm-ci", ".log");
        Process npm = new ProcessBuilder("npm", "ci", "--ignore-scripts", "--no-audit", "--no-fund")
                .directory(folder.toFile())
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        boolean installed = npm.waitFor(5, TimeUnit.MINUTES) && npm.exitValue() == 0;
        assertThat(installed)
                .as("npm ci in end-to-end-tests/" + folder + ": " + Files.readString(log))
                .isTrue();
    }

    /**
     * Runs the browser walk {@code node script args…} in {@code browser/} (its packages installed first) for at most
     * {@code limit}; asserts it exited 0 and answers the JSON line it printed last.
     */
    static JsonNode runWalk(String script, Duration limit, String... args) throws IOException, InterruptedException {
        return Walk.start(script, args).finish(limit);
    }

    /**
     * A browser walk, running: {@code node script args…} in {@code browser/}, its standard error kept in {@code log}.
     */
    record Walk(String script, Process process, Path log) {

        /** Installs the browser packages once, then starts the walk. */
        static Walk start(String script, String... args) throws IOException, InterruptedException {
            installPackages(BROWSER, "playwright-core");
            installPackages(BROWSER, "axe-core");
            Path log = Files.createTempFile(script.replace(".mjs", ""), ".log");
            List<String> command = new ArrayList<>(List.of("node", script));
            command.addAll(List.of(args));
            Process process = new ProcessBuilder(command)
                    .directory(BROWSER.toFile())
                    .redirectError(log.toFile())
                    .start();
            return new Walk(script, process, log);
        }

        /**
         * Waits up to {@code limit} for the walk (destroyed past it); asserts it exited 0 and answers the JSON line it
         * printed last. The failures name the script and carry its standard error and output.
         */
        JsonNode finish(Duration limit) throws IOException, InterruptedException {
            if (!process.waitFor(limit.toSeconds(), TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new AssertionError(
                        "the walk browser/" + script + " did not finish in " + limit + ": " + Files.readString(log));
            }
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            assertThat(process.exitValue())
                    .as("browser/" + script + ": " + Files.readString(log) + output)
                    .isZero();
            return JSON.readTree(output.lines().reduce((first, last) -> last).orElseThrow());
        }
    }

    /**
     * The requests a dashboard walk saw refused ({@code failedRequests}), each as "METHOD path status code". A body the
     * browser dropped because the page moved on first (code "(unread)") takes the code the same method, path and
     * status had where it was read; one never read keeps "(unread)", which no test expects.
     */
    static List<String> refusedRequests(JsonNode walk) {
        List<JsonNode> refused = walk.get("failedRequests").values().stream().toList();
        Map<String, String> readCodes = new HashMap<>();
        refused.stream()
                .filter(r -> !UNREAD.equals(r.get("code").asString()))
                .forEach(r -> readCodes.putIfAbsent(request(r), r.get("code").asString()));
        return refused.stream()
                .map(r -> {
                    String code = r.get("code").asString();
                    return request(r) + " " + (UNREAD.equals(code) ? readCodes.getOrDefault(request(r), code) : code);
                })
                .toList();
    }

    private static final String UNREAD = "(unread)";

    private static String request(JsonNode refused) {
        return refused.get("method").asString() + " "
                + refused.get("path").asString() + " "
                + refused.get("status").asInt();
    }

    /**
     * What every dashboard walk checks besides its own steps: no console error but the browser's "Failed to load
     * resource" of each refused request; nothing serious or critical from axe-core on any page it checked; and its
     * screenshots, exactly {@code shots}, each kept as {@code <screenshots>/<prefix><shot>-desktop.png} and
     * {@code -phone.png}, none of them wider than a phone.
     */
    static void assertPagesClean(JsonNode walk, Path screenshots, String prefix, List<String> shots) {
        assertThat(walk.get("consoleErrors").values().stream().map(JsonNode::asString))
                .hasSize(walk.get("failedRequests").size())
                .allMatch(text -> text.startsWith("Failed to load resource: the server responded with a status of"));
        for (Map.Entry<String, JsonNode> page : walk.get("axe").properties()) {
            assertThat(page.getValue().values().stream()
                            .filter(v -> List.of("serious", "critical")
                                    .contains(v.get("impact").asString()))
                            .map(JsonNode::toString)
                            .toList())
                    .as("serious or critical axe-core violations on " + page.getKey())
                    .isEmpty();
        }
        assertThat(walk.get("overflows").properties())
                .hasSize(shots.size())
                .allSatisfy(shot -> assertThat(shot.getValue().asBoolean())
                        .as(shot.getKey() + " is wider than a phone")
                        .isFalse());
        for (String shot : shots) {
            assertThat(screenshots.resolve(prefix + shot + "-desktop.png")).isNotEmptyFile();
            assertThat(screenshots.resolve(prefix + shot + "-phone.png")).isNotEmptyFile();
        }
    }

    /** The receiving key (m/44'/60'/0'/0, as an xpub) of a fresh wallet, derived as the launcher's sandbox wallet is. */
    static String freshReceivingKey() {
        byte[] entropy = new byte[16];
        new SecureRandom().nextBytes(entropy);
        return SandboxWallet.fromMnemonic(MnemonicUtils.generateMnemonic(entropy))
                .extendedPublicKey();
    }
}
