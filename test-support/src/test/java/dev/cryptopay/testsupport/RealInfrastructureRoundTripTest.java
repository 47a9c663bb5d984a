package dev.cryptopay.testsupport;

import static org.assertj.core.api.Assertions.assertThat;

import io.r2dbc.spi.ConnectionFactories;
import io.r2dbc.spi.ConnectionFactory;
import io.r2dbc.spi.ConnectionFactoryOptions;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.test.StepVerifier;

class RealInfrastructureRoundTripTest {

    @RegisterExtension
    static final PostgresDatabaseExtension postgres = new PostgresDatabaseExtension();

    @Test
    void rowRoundTripsThroughR2dbcInTheClassOwnDatabase() {
        TestDatabase database = postgres.database();
        ConnectionFactory factory = ConnectionFactories.get(ConnectionFactoryOptions.parse(database.r2dbcUrl())
                .mutate()
                .option(ConnectionFactoryOptions.USER, database.user())
                .option(ConnectionFactoryOptions.PASSWORD, database.password())
                .build());

        Flux<String> names = Mono.from(factory.create())
                .flatMapMany(connection -> Flux.concat(
                                Mono.from(connection
                                                .createStatement("CREATE TABLE item (id int PRIMARY KEY, name text)")
                                                .execute())
                                        .flatMap(result -> Mono.from(result.getRowsUpdated())),
                                Mono.from(connection
                                                .createStatement("INSERT INTO item VALUES ($1, $2)")
                                                .bind("$1", 1)
                                                .bind("$2", "café ☕")
                                                .execute())
                                        .flatMap(result -> Mono.from(result.getRowsUpdated())))
                        .thenMany(Flux.from(connection
                                        .createStatement("SELECT name FROM item WHERE id = 1")
                                        .execute())
                                .flatMap(result -> result.map((row, meta) -> row.get("name", String.class))))
                        .concatWith(Mono.from(connection.close()).then(Mono.empty())));

        StepVerifier.create(names).expectNext("café ☕").verifyComplete();
        assertThat(database.name()).startsWith("test_");
    }

    @Test
    void droppingTheDatabaseRemovesItFromTheServer() throws Exception {
        TestDatabase scratch = TestPostgres.newDatabase();
        assertThat(databaseExists(scratch.server(), scratch.name())).isTrue();

        scratch.close();

        assertThat(databaseExists(scratch.server(), scratch.name())).isFalse();
    }

    @Test
    void embeddedFallbackStartsARealServerOnThisMachine() throws Exception {
        PostgresServer embedded = TestPostgres.startEmbedded();
        TestDatabase database = TestDatabase.create(embedded);
        try (var connection = DriverManager.getConnection(database.jdbcUrl(), database.user(), database.password());
                ResultSet rs = connection.createStatement().executeQuery("SELECT current_database(), version()")) {
            assertThat(rs.next()).isTrue();
            assertThat(rs.getString(1)).isEqualTo(database.name());
            assertThat(rs.getString(2)).startsWith("PostgreSQL");
        } finally {
            database.close();
        }
    }

    @Test
    void recordRoundTripsThroughTheSharedKafkaBroker() {
        String servers = TestKafka.shared().bootstrapServers();
        String topic = "round-trip-" + UUID.randomUUID();

        try (var producer = new KafkaProducer<String, String>(
                Map.of("bootstrap.servers", servers, "acks", "all", "enable.idempotence", "true"),
                new StringSerializer(),
                new StringSerializer())) {
            producer.send(new ProducerRecord<>(topic, "merchant-1", "{\"hello\":\"kafka\"}"))
                    .get();
        } catch (Exception e) {
            throw new AssertionError("send failed", e);
        }

        try (var consumer = new KafkaConsumer<String, String>(
                Map.of("bootstrap.servers", servers, "group.id", "round-trip", "auto.offset.reset", "earliest"),
                new StringDeserializer(),
                new StringDeserializer())) {
            consumer.subscribe(List.of(topic));
            List<ConsumerRecord<String, String>> received = new ArrayList<>();
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (received.isEmpty() && System.nanoTime() < deadline) {
                consumer.poll(Duration.ofMillis(200)).forEach(received::add);
            }
            assertThat(received).singleElement().satisfies(record -> {
                assertThat(record.key()).isEqualTo("merchant-1");
                assertThat(record.value()).isEqualTo("{\"hello\":\"kafka\"}");
            });
        }
    }

    private static boolean databaseExists(PostgresServer server, String name) throws Exception {
        try (var connection =
                        DriverManager.getConnection(server.jdbcUrl("postgres"), server.user(), server.password());
                var statement = connection.prepareStatement("SELECT 1 FROM pg_database WHERE datname = ?")) {
            statement.setString(1, name);
            try (ResultSet rs = statement.executeQuery()) {
                return rs.next();
            }
        }
    }
}
