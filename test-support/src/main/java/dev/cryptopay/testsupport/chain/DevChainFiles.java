package dev.cryptopay.testsupport.chain;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The project's {@code dev-chain/} folder, made ready for use: anvil, solc and OpenZeppelin installed from the npm
 * lock file, and {@code build/TestToken.json} and {@code build/CryptopaySubscriptions.json} compiled from
 * {@code contracts/}. Several JVMs may prepare it at once (Maven runs
 * modules' tests in separate JVMs), so preparing holds a file lock on {@code build/setup.lock}.
 */
record DevChainFiles(Path dir, Path anvil, Path tokenArtifact) {

    private static final Path ANVIL = Path.of("node_modules", "@foundry-rs", "anvil-linux-amd64", "bin", "anvil");
    private static final Duration NPM_CI_TIMEOUT = Duration.ofMinutes(5);
    private static final Duration COMPILE_TIMEOUT = Duration.ofMinutes(2);

    /**
     * Finds {@code dev-chain/} above the working directory, runs {@code npm ci --ignore-scripts} there if the anvil
     * binary is missing or older than {@code package-lock.json}, and {@code node compile.js} if the token artifact
     * is missing or older than its sources.
     */
    static DevChainFiles prepare() {
        Path dir = locate();
        DevChainFiles files = new DevChainFiles(dir, dir.resolve(ANVIL), dir.resolve("build/TestToken.json"));
        try {
            Files.createDirectories(dir.resolve("build"));
            // One JVM-wide monitor as well: FileChannel.lock refuses a second lock from the same JVM.
            synchronized (DevChainFiles.class) {
                try (FileChannel channel = FileChannel.open(
                                dir.resolve("build/setup.lock"), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
                        FileLock lock = channel.lock()) {
                    files.installIfNeeded();
                    files.compileIfNeeded();
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot prepare " + dir, e);
        }
        return files;
    }

    private static Path locate() {
        Path start = Path.of("").toAbsolutePath();
        for (Path dir = start; dir != null; dir = dir.getParent()) {
            if (Files.isRegularFile(dir.resolve("dev-chain/package.json"))) {
                return dir.resolve("dev-chain");
            }
        }
        throw new IllegalStateException("no dev-chain/package.json in " + start + " or any directory above it");
    }

    private void installIfNeeded() throws IOException {
        Path installedLock = dir.resolve("node_modules/.package-lock.json"); // npm writes it on every install
        if (Files.isExecutable(anvil) && !olderThan(installedLock, List.of(dir.resolve("package-lock.json")))) {
            return;
        }
        if (!"Linux".equals(System.getProperty("os.name")) || !"amd64".equals(System.getProperty("os.arch"))) {
            throw new IllegalStateException(
                    "DevChain runs anvil from @foundry-rs/anvil-linux-amd64: Linux x86-64 only");
        }
        run(List.of("npm", "ci", "--ignore-scripts"), "npm-ci.log", NPM_CI_TIMEOUT, "npm (Node.js 20 with npm)");
        if (!Files.isExecutable(anvil)) {
            throw new IllegalStateException("npm ci finished but " + anvil + " is missing; see build/npm-ci.log");
        }
    }

    private void compileIfNeeded() throws IOException {
        List<Path> sources = new ArrayList<>(List.of(dir.resolve("compile.js"), dir.resolve("package-lock.json")));
        try (Stream<Path> contracts = Files.list(dir.resolve("contracts"))) {
            contracts.filter(p -> p.toString().endsWith(".sol")).forEach(sources::add);
        }
        List<Path> artifacts = List.of(
                tokenArtifact, subscriptionArtifact(tokenArtifact), tokenArtifact.resolveSibling("DevPriceFeed.json"));
        boolean current = true;
        for (Path artifact : artifacts) {
            current &= Files.isRegularFile(artifact) && !olderThan(artifact, sources);
        }
        if (current) {
            return;
        }
        run(List.of("node", "compile.js"), "compile.log", COMPILE_TIMEOUT, "Node.js 20 (node)");
        for (Path artifact : artifacts) {
            if (!Files.isRegularFile(artifact)) {
                throw new IllegalStateException("node compile.js finished but " + artifact + " is missing");
            }
        }
    }

    /** {@code build/CryptopaySubscriptions.json}, beside the token's artifact. */
    static Path subscriptionArtifact(Path tokenArtifact) {
        return tokenArtifact.resolveSibling("CryptopaySubscriptions.json");
    }

    /** True when {@code file} is missing or older than any of {@code sources}. */
    private static boolean olderThan(Path file, List<Path> sources) throws IOException {
        if (!Files.exists(file)) {
            return true;
        }
        FileTime built = Files.getLastModifiedTime(file);
        for (Path source : sources) {
            if (Files.exists(source) && Files.getLastModifiedTime(source).compareTo(built) > 0) {
                return true;
            }
        }
        return false;
    }

    /** Runs a command in {@code dev-chain/}, its output appended to {@code build/<logName>}; fails unless it exits 0. */
    private void run(List<String> command, String logName, Duration timeout, String toInstall) throws IOException {
        Path log = dir.resolve("build").resolve(logName);
        System.out.println("[test-support] dev chain: running " + String.join(" ", command) + " in " + dir
                + " (output in " + log + ")");
        Process process;
        try {
            process = new ProcessBuilder(command)
                    .directory(dir.toFile())
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                    .start();
        } catch (IOException e) {
            throw new IllegalStateException("DevChain needs " + toInstall + " on the PATH to run `"
                    + String.join(" ", command) + "` in " + dir + ": " + e.getMessage());
        }
        try {
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                Processes.kill(process);
                throw new IllegalStateException(String.join(" ", command) + " did not finish within " + timeout
                        + "; see " + log + "\n" + Processes.tail(log));
            }
        } catch (InterruptedException e) {
            Processes.kill(process);
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while running " + String.join(" ", command), e);
        }
        if (process.exitValue() != 0) {
            throw new IllegalStateException(String.join(" ", command) + " failed (exit " + process.exitValue()
                    + "); see " + log + "\n" + Processes.tail(log));
        }
    }
}
