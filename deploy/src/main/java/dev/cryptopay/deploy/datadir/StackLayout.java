package dev.cryptopay.deploy.datadir;

import dev.cryptopay.deploy.StackService;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * Where everything lives in the data directory ({@code .local/} by default); deploy/README.md "The data directory"
 * describes the same layout for people.
 */
public final class StackLayout {

    private final Path root;

    public StackLayout(Path root) {
        this.root = root;
    }

    /** The data directory itself. */
    public Path root() {
        return root;
    }

    /**
     * The data directory with symlinks resolved as far as it exists (like {@code realpath -m}): the same for every
     * spelling of the path, and before the directory is made or after it is deleted.
     */
    public Path realRoot() {
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
     * What the stack's database names end in: {@code _} and the first 8 hex digits of the SHA-256 of {@link
     * #realRoot()}. A data directory owns its databases: two stacks on one PostgreSQL server never share one, since
     * each has its own dev chain and secrets that its databases must match.
     */
    public String databaseSuffix() {
        try {
            byte[] hash = MessageDigest.getInstance("SHA-256")
                    .digest(realRoot().toString().getBytes(StandardCharsets.UTF_8));
            return "_" + HexFormat.of().formatHex(hash, 0, 4);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }

    /** {@code launcher.pid}: the running launcher, see {@link DataDirLock}. */
    public Path pidFile() {
        return root.resolve("launcher.pid");
    }

    /** {@code secrets.env}: the shared secrets, see {@link StackSecrets}. */
    public Path secretsFile() {
        return root.resolve("secrets.env");
    }

    /** {@code sandbox.env}: the sandbox merchant id, API key and compact private key. */
    public Path sandboxFile() {
        return root.resolve("sandbox.env");
    }

    /** {@code sandbox-key.pem}: the sandbox private key as PKCS#8 PEM. */
    public Path sandboxKeyPem() {
        return root.resolve("sandbox-key.pem");
    }

    /** {@code sandbox-wallet.txt}: the sandbox wallet's mnemonic (a development-only secret). */
    public Path sandboxWalletFile() {
        return root.resolve("sandbox-wallet.txt");
    }

    /** {@code chain/}: the dev chain's state ({@code state.json}), {@code anvil.log} and {@code anvil.pid}. */
    public Path chainDir() {
        return root.resolve("chain");
    }

    /** {@code chain/anvil.pid}: the running anvil, so the next start can stop one a killed launcher left. */
    public Path chainPidFile() {
        return chainDir().resolve("anvil.pid");
    }

    /** {@code stack.env}: what the summary shows (base URL, keys, admin API, wallet, dev chain, customer). */
    public Path stackEnvFile() {
        return root.resolve("stack.env");
    }

    /** {@code <service>.env}: the environment of a service you run yourself ({@code STACK_SKIP}). */
    public Path serviceEnvFile(StackService service) {
        return root.resolve(service.serviceName() + ".env");
    }

    /** {@code jars/}: the service jars the stack started with. */
    public Path jarsDir() {
        return root.resolve("jars");
    }

    /** {@code kafka/}: the broker's data. */
    public Path kafkaDir() {
        return root.resolve("kafka");
    }

    /** {@code postgres/}: the embedded PostgreSQL's data. */
    public Path postgresDir() {
        return root.resolve("postgres");
    }

    /** {@code logs/}. */
    public Path logDir() {
        return root.resolve("logs");
    }

    /** {@code logs/<service>.log}: the service's output, truncated at each launcher start. */
    public Path serviceLog(StackService service) {
        return logDir().resolve(service.serviceName() + ".log");
    }

    /** {@code logs/launcher.log}: the launcher JVM's own log (Kafka, the embedded PostgreSQL wrapper). */
    public Path launcherLog() {
        return logDir().resolve("launcher.log");
    }

    /** {@code logs/postgres.log}: the embedded PostgreSQL server's output. */
    public Path postgresLog() {
        return logDir().resolve("postgres.log");
    }
}
