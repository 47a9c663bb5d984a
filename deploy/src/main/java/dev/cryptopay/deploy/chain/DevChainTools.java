package dev.cryptopay.deploy.chain;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Whether the dev chain can run on this machine, asked once at start: test-support's {@code DevChain} installs anvil
 * and compiles the test token with npm and Node.js, and runs the Linux x86-64 anvil binary. Without them the stack
 * runs without the dev chain and chain-watcher and says what to install. Tests pass their own answer.
 */
@FunctionalInterface
public interface DevChainTools {

    /** What the dev chain lacks here, said for people ("Node.js 20 and npm (no node, npm on the PATH)"); empty: none. */
    Optional<String> missing();

    /** Looks at this JVM's operating system and architecture and the {@code PATH} of its environment. */
    static DevChainTools onPath() {
        return () -> missing(System.getenv(), System.getProperty("os.name"), System.getProperty("os.arch"));
    }

    /**
     * What is missing for an environment: Linux on x86-64 (the only anvil binary the lock file installs), and
     * executable {@code node} and {@code npm} in one of the {@code PATH} directories.
     */
    static Optional<String> missing(Map<String, String> env, String osName, String osArch) {
        if (!"Linux".equals(osName) || !"amd64".equals(osArch)) {
            return Optional.of("Linux on x86-64 (the anvil binary dev-chain/ installs is linux-amd64; this is " + osName
                    + " on " + osArch + ")");
        }
        String[] path = env.getOrDefault("PATH", "").split(File.pathSeparator);
        List<String> absent = Stream.of("node", "npm")
                .filter(program -> Arrays.stream(path)
                        .noneMatch(dir -> !dir.isBlank() && Files.isExecutable(Path.of(dir, program))))
                .toList();
        return absent.isEmpty()
                ? Optional.empty()
                : Optional.of("Node.js 20 and npm (no " + String.join(", no ", absent) + " on the PATH)");
    }
}
