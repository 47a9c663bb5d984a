package dev.cryptopay.deploy;

import static java.nio.charset.StandardCharsets.UTF_8;

import dev.cryptopay.auth.internal.InternalCallers;
import dev.cryptopay.auth.internal.InternalTokenSigner;
import dev.cryptopay.auth.keys.Ed25519KeyPairs;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * The data directory ({@code .local/} by default; deploy/README.md "The data directory" lists the same files): where
 * each file lives, the stack's secrets (the internal callers' key pairs among them), and the two pid files that make
 * sure one launcher uses it and nothing a killed launcher started outlives the next start.
 */
final class StackFiles {

    private static final SecureRandom RANDOM = new SecureRandom();

    final Path root;
    final Path launcherPidFile;
    /** The pids of the service JVMs this data directory's launcher runs, one a line. */
    final Path servicesPidFile;

    final Path sandboxFile;
    final Path sandboxKeyPem;
    final Path sandboxWalletFile;
    final Path chainDir;
    final Path stackEnvFile;
    final Path jarsDir;
    final Path kafkaDir;
    /** Every e-mail the stack's SMTP server received, one {@code <n>.eml} file each ({@code ./dev-mail}). */
    final Path mailDir;

    final Path postgresDir;
    final Path logDir;
    final Path launcherLog;

    StackFiles(Path root) {
        this.root = root;
        this.launcherPidFile = root.resolve("launcher.pid");
        this.servicesPidFile = root.resolve("services.pid");
        this.sandboxFile = root.resolve("sandbox.env");
        this.sandboxKeyPem = root.resolve("sandbox-key.pem");
        this.sandboxWalletFile = root.resolve("sandbox-wallet.txt");
        this.chainDir = root.resolve("chain");
        this.stackEnvFile = root.resolve("stack.env");
        this.jarsDir = root.resolve("jars");
        this.kafkaDir = root.resolve("kafka");
        this.mailDir = root.resolve("mail");
        this.postgresDir = root.resolve("postgres");
        this.logDir = root.resolve("logs");
        this.launcherLog = logDir.resolve("launcher.log");
    }

    /** The log of a service instance by its name ({@code gateway}, {@code gateway-2}). */
    Path serviceLog(String instance) {
        return logDir.resolve(instance + ".log");
    }

    /** The directory with symlinks resolved as far as it exists, so every spelling of it names the same databases. */
    Path realRoot() {
        Path absolute = root.toAbsolutePath().normalize();
        Path existing = absolute;
        while (!Files.exists(existing)) {
            existing = existing.getParent();
        }
        try {
            return existing.toRealPath().resolve(existing.relativize(absolute));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot resolve the data directory " + root, e);
        }
    }

    /**
     * {@code _} and 8 hex digits of the SHA-256 of {@link #realRoot()}: a data directory owns its databases, since its
     * dev chain and secrets must match them, so two stacks on one server never share one.
     */
    String databaseSuffix() {
        return "_" + sha256(realRoot().toString()).substring(0, 8);
    }

    static String sha256(String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }

    /**
     * Secrets made on the first run and kept, so stored webhook secrets stay readable and the admin token and the
     * internal callers' keys stay the same; a file from before a secret existed gets it added.
     *
     * @param gateway      the gateway's key pair as internal caller (it signs what it forwards)
     * @param chainWatcher the chain watcher's key pair as internal caller (it signs its reports)
     */
    record Secrets(
            InternalKeyPair gateway, InternalKeyPair chainWatcher, String adminToken, String webhookEncryptionKey) {

        @Override
        public String toString() {
            return "Secrets[<redacted>]";
        }
    }

    /**
     * One internal caller's Ed25519 key pair in the forms of its environment variables.
     *
     * @param privateKey {@code Ed25519:<Base64 PKCS#8 DER>}: the caller's {@code *_INTERNAL_AUTH_PRIVATE_KEY}
     * @param publicKey  Base64 of the SPKI DER: the receivers' {@code *_INTERNAL_AUTH_PUBLIC_KEYS}
     */
    record InternalKeyPair(String privateKey, String publicKey) {

        /** The pair of a private key, in any form auth-lib reads; refuses anything but an Ed25519 private key. */
        static InternalKeyPair of(String caller, String privateKey) {
            return new InternalKeyPair(
                    privateKey,
                    InternalTokenSigner.parse(caller, privateKey)
                            .verificationKey()
                            .toBase64());
        }

        @Override
        public String toString() {
            return "InternalKeyPair[publicKey=" + publicKey + ", privateKey=<redacted>]";
        }
    }

    /** The gateway's private key as internal caller, in {@code secrets.env} and in the gateway's environment. */
    static final String GATEWAY_PRIVATE_KEY = "GATEWAY_INTERNAL_AUTH_PRIVATE_KEY";
    /** The chain watcher's private key as internal caller, in {@code secrets.env} and in its environment. */
    static final String CHAIN_WATCHER_PRIVATE_KEY = "CHAIN_WATCHER_INTERNAL_AUTH_PRIVATE_KEY";
    /** The shared HMAC secrets of before the key pairs: dropped from {@code secrets.env}, nothing reads them. */
    static final List<String> RETIRED_SECRETS = List.of("INTERNAL_AUTH_SECRET", "CHAIN_WATCHER_INTERNAL_AUTH_SECRET");

    /**
     * Reads {@code secrets.env}, adding what it lacks (or holds empty) and dropping the retired HMAC secrets. Of the
     * internal callers' key pairs only the private keys are kept: each public key is derived from its private key, so
     * the two never disagree.
     */
    Secrets loadOrCreateSecrets() {
        Path secretsFile = root.resolve("secrets.env");
        Map<String, String> values = EnvFile.read(secretsFile);
        boolean changed = values.keySet().removeAll(RETIRED_SECRETS);
        changed |= addIfMissing(values, GATEWAY_PRIVATE_KEY, StackFiles::newPrivateKey);
        changed |= addIfMissing(values, CHAIN_WATCHER_PRIVATE_KEY, StackFiles::newPrivateKey);
        changed |= addIfMissing(values, "GATEWAY_ADMIN_TOKEN", () -> random(32, true));
        changed |= addIfMissing(values, "WEBHOOK_SECRET_ENCRYPTION_KEY", () -> random(32, false));
        if (changed) {
            EnvFile.write(secretsFile, values);
        }
        return new Secrets(
                keyPair(secretsFile, InternalCallers.GATEWAY, GATEWAY_PRIVATE_KEY, values),
                keyPair(secretsFile, InternalCallers.CHAIN_WATCHER, CHAIN_WATCHER_PRIVATE_KEY, values),
                values.get("GATEWAY_ADMIN_TOKEN"),
                values.get("WEBHOOK_SECRET_ENCRYPTION_KEY"));
    }

    private static boolean addIfMissing(Map<String, String> values, String name, Supplier<String> value) {
        String saved = values.get(name);
        if (saved != null && !saved.isBlank()) {
            return false;
        }
        values.put(name, value.get());
        return true;
    }

    private static InternalKeyPair keyPair(
            Path secretsFile, String caller, String variable, Map<String, String> values) {
        try {
            return InternalKeyPair.of(caller, values.get(variable));
        } catch (IllegalArgumentException notAKey) {
            throw new StackStartException(variable + " in " + StackConsole.path(secretsFile)
                    + " is not an Ed25519 private key (" + notAKey.getMessage()
                    + "). Delete its line and start again: a new key pair is made.");
        }
    }

    /** A new Ed25519 private key as {@code Ed25519:<Base64 PKCS#8 DER>}. */
    private static String newPrivateKey() {
        return Ed25519KeyPairs.generate(RANDOM).privateKeyCompact();
    }

    private static String random(int bytes, boolean urlSafe) {
        byte[] value = new byte[bytes];
        RANDOM.nextBytes(value);
        return (urlSafe ? Base64.getUrlEncoder().withoutPadding() : Base64.getEncoder()).encodeToString(value);
    }

    /**
     * Writes this process's pid to {@code launcher.pid}: two launchers would share Kafka's and PostgreSQL's files, and
     * {@code ./run-local} reads it to refuse rebuilding the jars under a running stack.
     */
    void claim() {
        long me = ProcessHandle.current().pid();
        Optional<Long> other = runningLauncher().filter(pid -> pid != me);
        if (other.isPresent()) {
            throw new StackStartException("A local stack already runs on " + StackConsole.path(root) + " (launcher pid "
                    + other.get() + "). Use it, or stop it first (Ctrl-C in its terminal, or kill " + other.get()
                    + "); a second stack needs its own STACK_DATA_DIR and ports.");
        }
        try {
            Files.writeString(launcherPidFile, me + "\n");
        } catch (IOException e) {
            throw new StackStartException("Cannot write " + StackConsole.path(launcherPidFile) + ": " + e.getMessage()
                    + ". Set STACK_DATA_DIR to a writable directory.");
        }
    }

    Optional<Long> runningLauncher() {
        return liveProcesses(launcherPidFile, "").stream().findFirst().map(ProcessHandle::pid);
    }

    void release() throws IOException {
        Files.deleteIfExists(launcherPidFile);
        Files.deleteIfExists(servicesPidFile);
    }

    synchronized void recordServices(List<Process> processes) {
        StringBuilder text = new StringBuilder();
        processes.stream()
                .filter(p -> p != null && p.isAlive())
                .forEach(p -> text.append(p.pid()).append('\n'));
        try {
            Files.writeString(servicesPidFile, text);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + servicesPidFile, e);
        }
    }

    /**
     * Stops the service JVMs a killed launcher left running (its shutdown hook never ran): those of {@code services.pid}
     * still running from {@code <data dir>/jars} (a reused pid is someone else's). Returns the pids stopped.
     */
    List<Long> stopLeftoverServices() {
        List<ProcessHandle> leftovers =
                liveProcesses(servicesPidFile, jarsDir.toAbsolutePath().toString());
        leftovers.forEach(ProcessHandle::destroy);
        leftovers.forEach(process -> stop(process, 20));
        try {
            Files.deleteIfExists(servicesPidFile);
        } catch (IOException ignored) {
            // rewritten once the services start
        }
        return leftovers.stream().map(ProcessHandle::pid).toList();
    }

    /** The live processes a pid file names (one pid a line) whose command line contains the text. */
    static List<ProcessHandle> liveProcesses(Path pidFile, String text) {
        try {
            return Files.readAllLines(pidFile).stream()
                    .map(String::strip)
                    .filter(line -> line.matches("\\d+"))
                    .flatMap(pid -> ProcessHandle.of(Long.parseLong(pid)).stream())
                    .filter(p ->
                            p.isAlive() && p.info().commandLine().orElse("").contains(text))
                    .toList();
        } catch (IOException e) {
            return List.of();
        }
    }

    static void stop(ProcessHandle process, int graceSeconds) {
        process.destroy();
        try {
            process.onExit().get(graceSeconds, TimeUnit.SECONDS);
        } catch (Exception e) {
            process.destroyForcibly();
        }
    }
}
