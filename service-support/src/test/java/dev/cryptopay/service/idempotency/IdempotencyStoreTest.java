package dev.cryptopay.service.idempotency;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cryptopay.auth.Mode;
import dev.cryptopay.auth.internal.MerchantIdentity;
import dev.cryptopay.service.error.ApiException;
import dev.cryptopay.testsupport.PostgresDatabaseExtension;
import java.time.Instant;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.transaction.NoTransactionException;
import org.springframework.transaction.reactive.TransactionSynchronizationManager;
import reactor.core.publisher.Mono;

/** The answer of an idempotent POST route ({@link IdempotencyStore#respond}), on a real database. */
@SpringBootTest(
        classes = dev.cryptopay.service.web.TestServiceApplication.class,
        properties = {"idempotency.enabled=true", "spring.flyway.locations=classpath:db/outbox,classpath:db/idempotency"
        })
class IdempotencyStoreTest {

    @RegisterExtension
    static final PostgresDatabaseExtension postgres = new PostgresDatabaseExtension();

    @DynamicPropertySource
    static void database(DynamicPropertyRegistry registry) {
        postgres.registerSpringProperties(registry);
    }

    @Autowired
    IdempotencyStore store;

    private final MerchantIdentity merchant = new MerchantIdentity(UUID.randomUUID(), Mode.TEST);
    private final Instant now = Instant.parse("2026-11-22T10:00:00Z");
    private final AtomicInteger runs = new AtomicInteger();

    /** Work that renders a body naming how many times it ran. */
    private final Supplier<Mono<String>> work =
            () -> Mono.fromSupplier(() -> "{\"run\":" + runs.incrementAndGet() + "}");

    @Test
    void theStatusGivenIsAnsweredWithTheJsonTheWorkRendersAndARetryWithTheKeyGetsTheSameAnswerWithoutRunningIt() {
        ResponseEntity<String> first = store.respond(merchant, "key-1", "link\n{}", now, HttpStatus.OK, work)
                .block();
        ResponseEntity<String> retry = store.respond(merchant, "key-1", "link\n{}", now, HttpStatus.OK, work)
                .block();

        assertThat(first.getStatusCode()).isEqualTo(HttpStatus.OK);
        assertThat(first.getHeaders().getContentType()).isEqualTo(MediaType.APPLICATION_JSON);
        assertThat(first.getBody()).isEqualTo("{\"run\":1}");
        assertThat(retry.getStatusCode()).isEqualTo(HttpStatus.OK);
        assertThat(retry.getBody()).isEqualTo("{\"run\":1}");
        assertThat(runs).hasValue(1);
    }

    @Test
    void aRetryAnswersTheStoredStatusEvenWhenTheRouteWouldAnswerAnotherNow() {
        store.created(merchant, "key-2", "{}", now, work).block();

        ResponseEntity<String> retry =
                store.respond(merchant, "key-2", "{}", now, HttpStatus.OK, work).block();

        assertThat(retry.getStatusCode()).isEqualTo(HttpStatus.CREATED);
        assertThat(retry.getBody()).isEqualTo("{\"run\":1}");
        assertThat(runs).hasValue(1);
    }

    @Test
    void theSameKeyOnAnotherRequestIsAConflictAndRunsNothing() {
        store.respond(merchant, "key-3", "link-a\n{}", now, HttpStatus.OK, work).block();

        assertThatThrownBy(() -> store.respond(merchant, "key-3", "link-b\n{}", now, HttpStatus.OK, work)
                        .block())
                .isInstanceOfSatisfying(
                        ApiException.class,
                        conflict -> assertThat(conflict.code()).isEqualTo("idempotency_key_reused"));
        assertThat(runs).hasValue(1);
    }

    @Test
    void withoutAKeyEveryRequestRunsTheWork() {
        ResponseEntity<String> first =
                store.respond(merchant, null, "{}", now, HttpStatus.OK, work).block();
        ResponseEntity<String> second =
                store.respond(merchant, null, "{}", now, HttpStatus.OK, work).block();

        assertThat(first.getBody()).isEqualTo("{\"run\":1}");
        assertThat(second.getBody()).isEqualTo("{\"run\":2}");
        assertThat(second.getStatusCode()).isEqualTo(HttpStatus.OK);
    }

    @Test
    void aSelfContainedCreateRunsWithoutATransactionOnlyWhenNoKeyCame() {
        Supplier<Mono<String>> inTransaction = () -> TransactionSynchronizationManager.forCurrentTransaction()
                .map(current -> "{\"transaction\":" + current.isActualTransactionActive() + "}")
                .onErrorResume(NoTransactionException.class, none -> Mono.just("{\"transaction\":false}"));

        ResponseEntity<String> withoutKey = store.createdSelfContained(merchant, null, "{}", now, inTransaction)
                .block();
        assertThat(withoutKey.getStatusCode()).isEqualTo(HttpStatus.CREATED);
        assertThat(withoutKey.getHeaders().getContentType()).isEqualTo(MediaType.APPLICATION_JSON);
        assertThat(withoutKey.getBody()).isEqualTo("{\"transaction\":false}");
        assertThat(store.created(merchant, null, "{}", now, inTransaction)
                        .block()
                        .getBody())
                .as("any other work keeps its transaction")
                .isEqualTo("{\"transaction\":true}");

        assertThat(store.createdSelfContained(merchant, "key-4", "{}", now, inTransaction)
                        .block()
                        .getBody())
                .as("with a key it runs in the claim's transaction")
                .isEqualTo("{\"transaction\":true}");
        assertThat(store.createdSelfContained(merchant, "key-4", "{}", now, work)
                        .block()
                        .getBody())
                .as("and a retry answers the stored response")
                .isEqualTo("{\"transaction\":true}");
        assertThat(runs).hasValue(0);
    }
}
