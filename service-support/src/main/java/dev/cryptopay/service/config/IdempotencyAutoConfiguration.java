package dev.cryptopay.service.config;

import dev.cryptopay.service.idempotency.IdempotencyProperties;
import dev.cryptopay.service.idempotency.IdempotencyPurge;
import dev.cryptopay.service.idempotency.IdempotencyStore;
import java.time.Clock;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.transaction.ReactiveTransactionManager;
import org.springframework.transaction.reactive.TransactionalOperator;

/** The Idempotency-Key store and its purge loop, for services that take the header ({@code idempotency.enabled=true}). */
@AutoConfiguration(afterName = "org.springframework.boot.r2dbc.autoconfigure.R2dbcAutoConfiguration")
@ConditionalOnClass(DatabaseClient.class)
@ConditionalOnProperty(name = "idempotency.enabled", havingValue = "true")
@EnableConfigurationProperties(IdempotencyProperties.class)
public class IdempotencyAutoConfiguration {

    @Bean
    IdempotencyStore idempotencyStore(
            DatabaseClient database, ReactiveTransactionManager transactions, IdempotencyProperties properties) {
        return new IdempotencyStore(database, TransactionalOperator.create(transactions), properties);
    }

    @Bean
    IdempotencyPurge idempotencyPurge(IdempotencyStore store, IdempotencyProperties properties, Clock clock) {
        return new IdempotencyPurge(store, properties, clock);
    }
}
