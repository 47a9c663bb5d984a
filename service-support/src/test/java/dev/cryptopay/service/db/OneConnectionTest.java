package dev.cryptopay.service.db;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cryptopay.testsupport.PostgresDatabaseExtension;
import java.time.Duration;
import java.time.OffsetDateTime;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.transaction.ReactiveTransactionManager;
import org.springframework.transaction.reactive.TransactionalOperator;
import reactor.core.publisher.Mono;

@SpringBootTest(classes = dev.cryptopay.service.web.TestServiceApplication.class)
class OneConnectionTest {

    @RegisterExtension
    static final PostgresDatabaseExtension postgres = new PostgresDatabaseExtension();

    @DynamicPropertySource
    static void infrastructure(DynamicPropertyRegistry registry) {
        postgres.registerSpringProperties(registry);
    }

    @Autowired
    DatabaseClient database;

    @Autowired
    ReactiveTransactionManager transactionManager;

    record Seen(int backend, OffsetDateTime transactionTime) {}

    @BeforeEach
    void scratchTable() {
        database.sql("CREATE TABLE IF NOT EXISTS one_connection_test (id INT PRIMARY KEY)")
                .then()
                .block();
        database.sql("DELETE FROM one_connection_test").then().block();
    }

    private Mono<Seen> seen() {
        return database.sql("SELECT pg_backend_pid(), now()")
                .map(row -> new Seen(row.get(0, Integer.class), row.get(1, OffsetDateTime.class)))
                .one();
    }

    @Test
    void theStatementsShareOneConnectionButNoTransaction() {
        Mono<Seen[]> twice = seen().delayElement(Duration.ofMillis(20))
                .flatMap(first -> seen().map(second -> new Seen[] {first, second}));

        Seen[] shared =
                OneConnection.operator(transactionManager).transactional(twice).block();
        assertThat(shared[1].backend()).as("one connection").isEqualTo(shared[0].backend());
        assertThat(shared[1].transactionTime())
                .as("now() is the transaction's start: it moved, so each statement was a transaction of its own")
                .isAfter(shared[0].transactionTime());

        Seen[] inTransaction = TransactionalOperator.create(transactionManager)
                .transactional(twice)
                .block();
        assertThat(inTransaction[1].transactionTime()).isEqualTo(inTransaction[0].transactionTime());
    }

    @Test
    void aFailureKeepsWhatEarlierStatementsDidButInsideATransactionItJoinsIt() {
        Mono<Void> insertThenFail = database.sql("INSERT INTO one_connection_test (id) VALUES (1)")
                .then()
                .then(Mono.error(new IllegalStateException("failed after the insert")));

        assertThatThrownBy(() -> OneConnection.operator(transactionManager)
                        .transactional(insertThenFail)
                        .block())
                .hasMessageContaining("failed after the insert");
        assertThat(rows()).isEqualTo(1);

        database.sql("DELETE FROM one_connection_test").then().block();
        assertThatThrownBy(() -> TransactionalOperator.create(transactionManager)
                        .transactional(
                                OneConnection.operator(transactionManager).transactional(insertThenFail))
                        .block())
                .hasMessageContaining("failed after the insert");
        assertThat(rows()).as("rolled back with the surrounding transaction").isZero();
    }

    private long rows() {
        return database.sql("SELECT count(*) FROM one_connection_test")
                .map(row -> row.get(0, Long.class))
                .one()
                .block();
    }
}
