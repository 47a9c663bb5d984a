package dev.cryptopay.testsupport;

/**
 * A running Kafka broker for tests. A {@link KraftBroker} (from {@link TestKafka#startDedicated(int)}) can also be
 * stopped and restarted at the same address.
 */
public interface KafkaBroker extends AutoCloseable {

    /** Value for {@code bootstrap.servers}. */
    String bootstrapServers();

    /** How the broker was obtained (in-JVM KRaft or a container), for logs. */
    String origin();

    /** Stops the broker; clients see it as down. */
    @Override
    void close();
}
