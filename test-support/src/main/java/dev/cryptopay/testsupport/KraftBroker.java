package dev.cryptopay.testsupport;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.metadata.properties.MetaProperties;
import org.apache.kafka.metadata.properties.PropertiesUtils;
import org.apache.kafka.metadata.storage.Formatter;

/**
 * A real single-node Kafka server (KRaft, {@code process.roles=broker,controller}) run inside the JVM with Kafka's
 * own server classes: the one in-JVM broker of this code base ({@link TestKafka}'s shared and dedicated brokers, and
 * the local stack launcher's).
 *
 * <p>It keeps its storage directory and its ports, so a test can take it down on purpose: {@link #stop()} shuts the
 * server down cleanly, {@link #restart()} brings the same cluster back at the same {@link #bootstrapServers()} with its
 * topics, records, committed offsets and idempotent-producer state — what a real broker restart looks like to a
 * client.
 *
 * <p>The client listener is {@code 127.0.0.1:<port>} (also advertised); the controller listener uses a second free
 * local port chosen once per instance. Topics are auto-created with 3 partitions; internal topics have replication
 * factor 1.
 */
public final class KraftBroker implements KafkaBroker {

    private static final int NODE_ID = 1;
    private static final String HOST = "127.0.0.1";
    private static final String CLIENT_LISTENER = "PLAINTEXT";
    private static final String CONTROLLER_LISTENER = "CONTROLLER";
    private static final String META_PROPERTIES = "meta.properties";
    private static final Duration READY_TIMEOUT = Duration.ofSeconds(60);

    private final Path dataDir;
    private final Path logDir;
    private final boolean ownsDataDir;
    private final int port;
    private final int controllerPort;
    private final String clusterId;

    private KafkaRaftServer server;
    private boolean closed;

    private KraftBroker(Path dataDir, boolean ownsDataDir, int port) {
        this.dataDir = dataDir;
        this.logDir = dataDir.resolve("kafka-logs");
        this.ownsDataDir = ownsDataDir;
        this.port = port > 0 ? port : freeLocalPort();
        this.controllerPort = freeLocalPort(this.port);
        this.clusterId = formatOnFirstUse();
    }

    /**
     * Starts a broker whose data lives in {@code dataDir} (created and formatted on first use, reused as is
     * afterwards). {@link #close()} leaves the directory in place: the caller owns it.
     *
     * @param port client port on 127.0.0.1, or 0 for a free port chosen now and kept across restarts
     */
    public static KraftBroker start(Path dataDir, int port) {
        KraftBroker broker = new KraftBroker(dataDir.toAbsolutePath(), false, port);
        broker.startServer();
        return broker;
    }

    /**
     * Starts a broker in a new temporary directory that the broker owns: {@link #close()} deletes it.
     *
     * @param port client port on 127.0.0.1, or 0 for a free port chosen now and kept across restarts
     */
    public static KraftBroker startInTempDir(int port) {
        Path dir;
        try {
            dir = Files.createTempDirectory("kraft-broker-");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a temporary directory for Kafka", e);
        }
        KraftBroker broker;
        try {
            broker = new KraftBroker(dir, true, port);
        } catch (RuntimeException e) {
            deleteRecursively(dir);
            throw e;
        }
        try {
            broker.startServer();
        } catch (RuntimeException e) {
            broker.close();
            throw e;
        }
        return broker;
    }

    @Override
    public String bootstrapServers() {
        return HOST + ":" + port;
    }

    @Override
    public String origin() {
        return "in-JVM Kafka KRaft server (data in " + dataDir + ")";
    }

    /** The client port, the same before and after a restart. */
    public int port() {
        return port;
    }

    /** The directory holding the broker's logs and metadata. */
    public Path dataDir() {
        return dataDir;
    }

    /** The cluster id written when the directory was formatted; it survives restarts. */
    public String clusterId() {
        return clusterId;
    }

    /** Whether the server is up (between a start and a {@link #stop()}). */
    public synchronized boolean isRunning() {
        return server != null;
    }

    /**
     * Shuts the server down cleanly and waits until it is gone: clients see a broker that is down. Data is kept.
     * Does nothing when already stopped.
     */
    public synchronized void stop() {
        if (server == null) {
            return;
        }
        KafkaRaftServer running = server;
        server = null;
        running.shutdown();
        running.awaitShutdown();
    }

    /**
     * Brings the server back (stopping it first if it runs) at the same address, with the same data, and returns
     * once it serves requests. If the start fails (say another process took the port meanwhile) the broker stays
     * stopped and {@code restart()} may be called again.
     *
     * @throws IllegalStateException after {@link #close()}, or when the server does not start
     */
    public synchronized void restart() {
        if (closed) {
            throw new IllegalStateException("KraftBroker at " + bootstrapServers() + " is closed");
        }
        stop();
        startServer();
    }

    /** Stops the server; deletes the data directory only if this broker created it ({@link #startInTempDir}). */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            stop();
        } finally {
            if (ownsDataDir) {
                deleteRecursively(dataDir);
            }
        }
    }

    @Override
    public String toString() {
        return "KraftBroker[" + bootstrapServers() + ", " + dataDir + (isRunning() ? ", running]" : ", stopped]");
    }

    private synchronized void startServer() {
        KafkaServerLogLevels.quietenServerLoggers();
        KafkaConfig config = new KafkaConfig(serverProperties(), false);
        KafkaRaftServer starting = new KafkaRaftServer(config, Time.SYSTEM);
        try {
            starting.startup();
            awaitServing();
        } catch (RuntimeException e) {
            try {
                starting.shutdown();
                starting.awaitShutdown();
            } catch (RuntimeException cleanupFailure) {
                e.addSuppressed(cleanupFailure);
            }
            throw new IllegalStateException(
                    "Kafka server at " + bootstrapServers() + " (controller port "
                            + controllerPort + ", data in " + dataDir + ") did not start: " + e.getMessage()
                            + " (root cause: " + rootCause(e) + ")",
                    e);
        }
        server = starting;
    }

    private Map<String, Object> serverProperties() {
        Map<String, Object> props = new HashMap<>();
        props.put("process.roles", "broker,controller");
        props.put("node.id", String.valueOf(NODE_ID));
        props.put("controller.quorum.voters", NODE_ID + "@" + HOST + ":" + controllerPort);
        props.put(
                "listeners",
                CLIENT_LISTENER + "://" + HOST + ":" + port + "," + CONTROLLER_LISTENER + "://" + HOST + ":"
                        + controllerPort);
        props.put("advertised.listeners", CLIENT_LISTENER + "://" + HOST + ":" + port);
        props.put(
                "listener.security.protocol.map", CLIENT_LISTENER + ":PLAINTEXT," + CONTROLLER_LISTENER + ":PLAINTEXT");
        props.put("controller.listener.names", CONTROLLER_LISTENER);
        props.put("inter.broker.listener.name", CLIENT_LISTENER);
        props.put("log.dirs", logDir.toString());

        props.put("auto.create.topics.enable", "true");
        props.put("num.partitions", "3");
        props.put("default.replication.factor", "1");
        props.put("min.insync.replicas", "1");
        props.put("group.initial.rebalance.delay.ms", "0");
        props.put("offsets.topic.replication.factor", "1");
        // Fewer internal partitions: the first consumer group and transaction start much faster.
        props.put("offsets.topic.num.partitions", "5");
        props.put("transaction.state.log.replication.factor", "1");
        props.put("transaction.state.log.min.isr", "1");
        props.put("transaction.state.log.num.partitions", "5");
        props.put("share.coordinator.state.topic.replication.factor", "1");
        props.put("share.coordinator.state.topic.min.isr", "1");

        // Test-sized resources: the log cleaner would otherwise reserve 128 MiB of heap per broker.
        props.put("log.cleaner.dedupe.buffer.size", String.valueOf(2 * 1024 * 1024));
        props.put("num.network.threads", "2");
        props.put("num.io.threads", "4");
        return props;
    }

    /** Formats the storage directory the first time (fixed cluster id in meta.properties); reads it back after. */
    private String formatOnFirstUse() {
        Path metaProperties = logDir.resolve(META_PROPERTIES);
        try {
            if (Files.exists(metaProperties)) {
                return new MetaProperties.Builder(PropertiesUtils.readPropertiesFile(metaProperties.toString()))
                        .build()
                        .clusterId()
                        .orElseThrow(() -> new IllegalStateException(metaProperties + " has no cluster.id"));
            }
            Files.createDirectories(logDir);
            String newClusterId = Uuid.randomUuid().toString();
            new Formatter()
                    .setPrintStream(new PrintStream(OutputStream.nullOutputStream()))
                    .setNodeId(NODE_ID)
                    .setClusterId(newClusterId)
                    .setControllerListenerName(CONTROLLER_LISTENER)
                    .setMetadataLogDirectory(logDir.toString())
                    .setDirectories(List.of(logDir.toString()))
                    .run();
            return newClusterId;
        } catch (Exception e) {
            throw new IllegalStateException("cannot format Kafka storage in " + logDir + ": " + e.getMessage(), e);
        }
    }

    /** {@code startup()} returns once the broker is unfenced; this proves a client really gets answers. */
    private void awaitServing() {
        long deadline = System.nanoTime() + READY_TIMEOUT.toNanos();
        Exception lastFailure = null;
        try (Admin admin = Admin.create(Map.of(
                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers(),
                AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 2_000,
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 5_000,
                AdminClientConfig.RECONNECT_BACKOFF_MAX_MS_CONFIG, 200))) {
            while (System.nanoTime() < deadline) {
                try {
                    var nodes = admin.describeCluster().nodes().get(5, TimeUnit.SECONDS);
                    if (nodes.stream().map(Node::id).anyMatch(id -> id == NODE_ID)) {
                        return;
                    }
                } catch (ExecutionException | TimeoutException e) {
                    lastFailure = e;
                }
                Thread.sleep(100);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for Kafka at " + bootstrapServers(), e);
        }
        throw new IllegalStateException(
                "Kafka at " + bootstrapServers() + " did not answer describeCluster within " + READY_TIMEOUT.toSeconds()
                        + " s",
                lastFailure);
    }

    private static String rootCause(Throwable failure) {
        Throwable cause = failure;
        while (cause.getCause() != null && cause.getCause() != cause) {
            cause = cause.getCause();
        }
        return cause.toString();
    }

    private static int freeLocalPort(int... excluded) {
        for (int attempt = 0; attempt < 20; attempt++) {
            try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName(HOST))) {
                int candidate = socket.getLocalPort();
                if (Arrays.stream(excluded).noneMatch(p -> p == candidate)) {
                    return candidate;
                }
            } catch (IOException e) {
                throw new UncheckedIOException("cannot find a free port on " + HOST, e);
            }
        }
        throw new IllegalStateException("no free port on " + HOST);
    }

    private static void deleteRecursively(Path dir) {
        try {
            DirectoryTree.delete(dir);
        } catch (IOException e) {
            System.err.println("[test-support] could not delete " + dir + ": " + e);
        }
    }
}
