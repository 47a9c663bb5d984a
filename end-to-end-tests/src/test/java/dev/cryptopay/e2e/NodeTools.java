package dev.cryptopay.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cryptopay.deploy.sandbox.SandboxWallet;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.concurrent.TimeUnit;
import org.web3j.crypto.MnemonicUtils;

/** What the tests that drive Node.js tools share: their packages, and a fresh receiving key for a new merchant. */
final class NodeTools {

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

    /** The receiving key (m/44'/60'/0'/0, as an xpub) of a fresh wallet, derived as the launcher's sandbox wallet is. */
    static String freshReceivingKey() {
        byte[] entropy = new byte[16];
        new SecureRandom().nextBytes(entropy);
        return SandboxWallet.fromMnemonic(MnemonicUtils.generateMnemonic(entropy))
                .extendedPublicKey();
    }
}
