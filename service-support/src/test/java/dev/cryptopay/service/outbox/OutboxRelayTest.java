package dev.cryptopay.service.outbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cryptopay.auth.Mode;
import dev.cryptopay.service.events.EventType;
import dev.cryptopay.service.events.Notify;
import dev.cryptopay.testsupport.MutableClock;
import dev.cryptopay.testsupport.PostgresDatabaseExtension;
import dev.cryptopay.testsupport.TestKafka;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.kafka.core.DefaultKafkaProducerFactory;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.transaction.ReactiveTransactionManager;
import org.springframework.transaction.reactive.TransactionalOperator;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import tools.jackson.databind.json.JsonMapper;

@SpringBootTest(
        classes = dev.cryptopay.service.web.TestServiceApplication.class,
        properties = {"outbox.enabled=true", "outbox.relay-enabled=false"})
class OutboxRelayTest {

    @RegisterExtension
    static final PostgresDatabaseExtension postgres = new PostgresDatabaseExtension();

    @DynamicPropertySource
    static void infrastructure(DynamicPropertyRegistry registry) {
        postgres.registerSpringProperties(registry);
        TestKafka.registerSpringProperties(registry);
    }

    @Autowired
    OutboxWriter writer;

    @Autowired
    OutboxRelay relay;

    @Autowired
    DatabaseClient database;

    @Autowired
    ReactiveTransactionManager transactionManager;

    @Autowired
    JsonMapper json;

    private TransactionalOperator transactions;
    private String topic;
    private final UUID merchant = UUID.randomUUID();

    @BeforeEach
    void freshOutbox() {
        transactions = TransactionalOperator.create(transactionManager);
        topic = "test-" + UUID.randomUUID() + ".events";
        database.sql("DELETE FROM outbox_event").then().block();
        database.sql("CREATE TABLE IF NOT EXISTS outbox_test_change (id INT PRIMARY KEY, name TEXT NOT NULL)")
                .then()
                .block();
        database.sql("DELETE FROM outbox_test_change").then().block();
    }

    private DomainEvent event(String type, int n) {
        return event(EventType.fromWireName(type).orElseThrow(), n);
    }

    private DomainEvent event(EventType type, int n) {
        return new DomainEvent(
                UUID.randomUUID(),
                type,
                Instant.parse("2026-11-22T10:00:00Z").plusSeconds(n),
                merchant,
                Mode.TEST,
                "payment_link",
                "link-" + n,
                Map.of("n", n, "amount", "10.50"),
                null);
    }

    @Test
    void publishesCommittedEventsInOrderWithEnvelopeKeyAndHeaders() {
        List<DomainEvent> events =
                List.of(event("payment.created", 1), event("payment.pending", 2), event("payment.completed", 3));
        transactions
                .transactional(Flux.fromIterable(events)
                        .concatMap(e -> writer.append(topic, e))
                        .then())
                .block();

        assertThat(relay.publishPending().block()).isEqualTo(3);

        List<ConsumerRecord<String, String>> records = consume(topic, 3);
        assertThat(records).extracting(ConsumerRecord::key).containsOnly(merchant.toString());
        assertThat(records)
                .extracting(r -> header(r, EventHeaders.EVENT_TYPE))
                .containsExactly("payment.created", "payment.pending", "payment.completed");
        ConsumerRecord<String, String> first = records.get(0);
        assertThat(header(first, EventHeaders.EVENT_ID))
                .isEqualTo(events.get(0).id().toString());
        assertThat(header(first, EventHeaders.AGGREGATE_TYPE)).isEqualTo("payment_link");
        assertThat(header(first, EventHeaders.AGGREGATE_ID)).isEqualTo("link-1");
        assertThat(first.value())
                .isEqualTo("{\"id\":\"" + events.get(0).id() + "\",\"type\":\"payment.created\","
                        + "\"created_at\":\"2026-11-22T10:00:01Z\",\"merchant_id\":\"" + merchant
                        + "\",\"mode\":\"test\","
                        + "\"data\":" + json.writeValueAsString(Map.of("n", 1, "amount", "10.50")) + "}");
        assertThat(unpublishedRows()).isZero();
        assertThat(relay.publishPending().block()).isZero();
    }

    @Test
    void anEventForACustomerCarriesItsNotifyMemberAfterData() {
        DomainEvent event = event("subscription.activated", 1)
                .withNotify(Notify.customer("ana@example.com", "Ana", "Shop <1>")
                        .withSubscription("https://pay.example/subscribe?x=1", "Pro", "10.5", 2_592_000, "Anvil", 3));
        transactions.transactional(writer.append(topic, event)).block();

        assertThat(relay.publishPending().block()).isEqualTo(1);
        assertThat(consume(topic, 1).get(0).value())
                .endsWith("\"data\":" + json.writeValueAsString(Map.of("n", 1, "amount", "10.50"))
                        + ",\"notify\":{\"customer_email\":\"ana@example.com\",\"customer_name\":\"Ana\","
                        + "\"merchant_name\":\"Shop <1>\",\"subscription_link_url\":\"https://pay.example/subscribe?x=1\","
                        + "\"plan_name\":\"Pro\",\"amount\":\"10.5\",\"interval_seconds\":2592000,\"network\":\"Anvil\","
                        + "\"cancel_after_missed\":3}}");
        assertThat(Notify.customer(" ", "Ana", "Shop"))
                .as("no address, no notify")
                .isNull();
    }

    @Test
    void neverPublishesTheEventsOfARolledBackChange() {
        Mono<Void> failingChange = writer.append(topic, event("payment.created", 1))
                .then(Mono.error(new IllegalStateException("the state change failed")));

        assertThatThrownBy(() -> transactions.transactional(failingChange).block())
                .hasMessageContaining("the state change failed");

        assertThat(countRows()).isZero();
        assertThat(relay.publishPending().block()).isZero();
    }

    @Test
    void keepsRowsWhileKafkaIsUnreachableAndPublishesThemOnceItIsBack() throws Exception {
        transactions
                .transactional(writer.append(topic, event("payment.created", 1)))
                .block();
        OutboxRelay unreachable = relayTo("127.0.0.1:" + unusedPort(), false);

        assertThatThrownBy(() -> unreachable.publishPending().block()).isNotNull();
        assertThat(unpublishedRows()).isEqualTo(1);

        assertThat(relay.publishPending().block()).isEqualTo(1);
        assertThat(consume(topic, 1)).hasSize(1);
    }

    @Test
    void runningRelayPublishesByItself() {
        OutboxRelay running = relayTo(TestKafka.shared().bootstrapServers(), true);
        running.start();
        try {
            transactions
                    .transactional(writer.append(topic, event("payment.created", 1)))
                    .block();
            assertThat(consume(topic, 1)).hasSize(1);
        } finally {
            running.stop();
        }
        assertThat(running.isRunning()).isFalse();
    }

    @Test
    void aCommitWakesTheRelayWhichOtherwisePollsOnlyEveryHour() {
        OutboxRelay hourly = relayTo(TestKafka.shared().bootstrapServers(), true, Duration.ofHours(1));
        OutboxWriter waking = new OutboxWriter(database, json, hourly::wakeUp);
        hourly.start();
        try {
            assertThat(relay.publishPending().block()).as("nothing pending").isZero();
            transactions
                    .transactional(waking.append(topic, event("payment.created", 1)))
                    .block();
            assertThat(consume(topic, 1)).hasSize(1);
        } finally {
            hourly.stop();
        }
    }

    @Test
    void theCommitHookRunsAfterACommitOnlyAndWithoutATransactionAfterTheInsert() {
        AtomicInteger commits = new AtomicInteger();
        OutboxWriter counting = new OutboxWriter(database, json, commits::incrementAndGet);

        assertThatThrownBy(() -> transactions
                        .transactional(counting.append(topic, event("payment.created", 1))
                                .then(Mono.error(new IllegalStateException("rolled back"))))
                        .block())
                .hasMessageContaining("rolled back");
        assertThat(commits).as("after a rollback").hasValue(0);

        transactions
                .transactional(counting.append(topic, event("payment.created", 2))
                        .then(Mono.fromRunnable(() ->
                                assertThat(commits).as("not before the commit").hasValue(0))))
                .block();
        assertThat(commits).as("after the commit").hasValue(1);

        counting.append(topic, event("payment.created", 3)).block();
        assertThat(commits).as("no transaction: the insert committed by itself").hasValue(2);
        assertThat(countRows()).isEqualTo(2);
    }

    @Test
    void appendWithStoresTheChangeAndItsEventsInOneStatementAndTheRelayPublishesThem() {
        AtomicInteger commits = new AtomicInteger();
        OutboxWriter counting = new OutboxWriter(database, json, commits::incrementAndGet);
        List<DomainEvent> events = List.of(event("payment.created", 1), event("payment.pending", 2));

        boolean changed = counting.appendWith(
                        "INSERT INTO outbox_test_change (id, name) VALUES (:id, :name) RETURNING id",
                        spec -> spec.bind("id", 1).bind("name", "first"),
                        topic,
                        events)
                .block();

        assertThat(changed).isTrue();
        assertThat(database.sql("SELECT name FROM outbox_test_change WHERE id = 1")
                        .map(row -> row.get(0, String.class))
                        .one()
                        .block())
                .isEqualTo("first");
        assertThat(commits)
                .as("no transaction: the statement committed by itself")
                .hasValue(1);
        assertThat(relay.publishPending().block()).isEqualTo(2);
        List<ConsumerRecord<String, String>> records = consume(topic, 2);
        assertThat(records)
                .extracting(r -> header(r, EventHeaders.EVENT_ID))
                .containsExactly(
                        events.get(0).id().toString(), events.get(1).id().toString());
        assertThat(records.get(1).value()).isEqualTo(writer.envelope(events.get(1)));
    }

    @Test
    void appendWithAppendsNothingWhenTheChangeChangedNothingOrFailed() {
        AtomicInteger commits = new AtomicInteger();
        OutboxWriter counting = new OutboxWriter(database, json, commits::incrementAndGet);
        database.sql("INSERT INTO outbox_test_change (id, name) VALUES (7, 'taken')")
                .then()
                .block();

        assertThat(counting.appendWith(
                                "UPDATE outbox_test_change SET name = 'x' WHERE id = 8 RETURNING id",
                                spec -> spec,
                                topic,
                                List.of(event("payment.created", 1)))
                        .block())
                .isFalse();
        assertThatThrownBy(() -> counting.appendWith(
                                "INSERT INTO outbox_test_change (id, name) VALUES (:id, 'again') RETURNING id",
                                spec -> spec.bind("id", 7),
                                topic,
                                List.of(event("payment.created", 2)))
                        .block())
                .isInstanceOf(DuplicateKeyException.class);
        assertThatThrownBy(() -> transactions
                        .transactional(counting.appendWith(
                                        "INSERT INTO outbox_test_change (id, name) VALUES (9, 'x') RETURNING id",
                                        spec -> spec,
                                        topic,
                                        List.of(event("payment.created", 3)))
                                .then(Mono.error(new IllegalStateException("rolled back"))))
                        .block())
                .hasMessageContaining("rolled back");

        assertThat(countRows()).isZero();
        assertThat(commits).hasValue(0);
        assertThat(database.sql("SELECT count(*) FROM outbox_test_change")
                        .map(row -> row.get(0, Long.class))
                        .one()
                        .block())
                .isEqualTo(1);
    }

    @Test
    void twoRelaysRacingNeverPublishARowTwice() {
        int total = 300;
        transactions
                .transactional(Flux.range(0, total)
                        .concatMap(n -> writer.append(topic, event("payment.created", n)))
                        .then())
                .block();
        OutboxRelay second = relayTo(TestKafka.shared().bootstrapServers(), false);

        Integer published = Flux.merge(IntStream.range(0, 10)
                        .mapToObj(i -> (i % 2 == 0 ? relay : second).publishPending())
                        .toList())
                .reduce(0, Integer::sum)
                .block();

        assertThat(published).isEqualTo(total);
        List<ConsumerRecord<String, String>> records = consume(topic, total);
        assertThat(records)
                .extracting(r -> header(r, EventHeaders.EVENT_ID))
                .doesNotHaveDuplicates()
                .hasSize(total);
        assertThat(records)
                .extracting(r -> header(r, EventHeaders.AGGREGATE_ID))
                .containsExactlyElementsOf(
                        IntStream.range(0, total).mapToObj(n -> "link-" + n).toList());
    }

    @Test
    void theBacklogGaugesAreRefreshedAtMostOnceASecond() {
        MutableClock clock = new MutableClock(Instant.parse("2026-11-22T10:10:00Z"));
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        OutboxRelay measured =
                relayTo(TestKafka.shared().bootstrapServers(), false, Duration.ofMillis(50), clock, meters);
        transactions
                .transactional(writer.append(topic, event("payment.created", 1)))
                .block();

        measured.measureBacklogIfDue().block();
        assertThat(meters.get("outbox.pending").gauge().value()).isEqualTo(1);
        assertThat(meters.get("outbox.oldest.pending.age").gauge().value()).isEqualTo(599); // created 10:00:01

        transactions
                .transactional(writer.append(topic, event("payment.pending", 2))
                        .then(writer.append(topic, event("payment.completed", 3))))
                .block();
        clock.advance(Duration.ofMillis(999));
        measured.measureBacklogIfDue().block();
        assertThat(meters.get("outbox.pending").gauge().value())
                .as("within the second")
                .isEqualTo(1);

        clock.advance(Duration.ofMillis(1));
        measured.measureBacklogIfDue().block();
        assertThat(meters.get("outbox.pending").gauge().value()).isEqualTo(3);
        assertThat(meters.get("outbox.oldest.pending.age").gauge().value()).isEqualTo(600);
    }

    private OutboxRelay relayTo(String bootstrapServers, boolean relayEnabled) {
        return relayTo(bootstrapServers, relayEnabled, Duration.ofMillis(50));
    }

    private OutboxRelay relayTo(String bootstrapServers, boolean relayEnabled, Duration pollInterval) {
        return relayTo(bootstrapServers, relayEnabled, pollInterval, Clock.systemUTC(), new SimpleMeterRegistry());
    }

    private OutboxRelay relayTo(
            String bootstrapServers,
            boolean relayEnabled,
            Duration pollInterval,
            Clock clock,
            SimpleMeterRegistry meters) {
        var producers = new DefaultKafkaProducerFactory<>(
                Map.<String, Object>of(
                        ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                        bootstrapServers,
                        ProducerConfig.ACKS_CONFIG,
                        "all",
                        ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG,
                        true,
                        ProducerConfig.MAX_BLOCK_MS_CONFIG,
                        1000,
                        ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG,
                        1000,
                        ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG,
                        2000),
                new StringSerializer(),
                new StringSerializer());
        var properties =
                new OutboxProperties(relayEnabled, pollInterval, 50, Duration.ofSeconds(2), Duration.ofDays(7));
        return new OutboxRelay(database, transactions, new KafkaTemplate<>(producers), properties, clock, meters);
    }

    private long unpublishedRows() {
        return database.sql("SELECT count(*) FROM outbox_event WHERE published_at IS NULL")
                .map(row -> row.get(0, Long.class))
                .one()
                .block();
    }

    private long countRows() {
        return database.sql("SELECT count(*) FROM outbox_event")
                .map(row -> row.get(0, Long.class))
                .one()
                .block();
    }

    private static String header(ConsumerRecord<String, String> record, String name) {
        return new String(record.headers().lastHeader(name).value(), StandardCharsets.UTF_8);
    }

    private static int unusedPort() throws Exception {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    /** Reads the topic from the start until {@code expected} records arrived, then a little longer for extras. */
    private static List<ConsumerRecord<String, String>> consume(String topic, int expected) {
        List<ConsumerRecord<String, String>> records = new ArrayList<>(TestKafka.records(topic, expected));
        records.sort((a, b) -> a.partition() != b.partition()
                ? Integer.compare(a.partition(), b.partition())
                : Long.compare(a.offset(), b.offset()));
        return records;
    }
}
