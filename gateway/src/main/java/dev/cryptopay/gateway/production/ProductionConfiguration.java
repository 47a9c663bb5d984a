package dev.cryptopay.gateway.production;

import dev.cryptopay.gateway.keys.PublishableKeyRepository;
import java.security.SecureRandom;
import java.time.Clock;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.transaction.ReactiveTransactionManager;
import org.springframework.transaction.reactive.TransactionalOperator;

/** Production access requests: in the server (merchant and admin routes) and in the command line alike. */
@Configuration(proxyBeanMethods = false)
public class ProductionConfiguration {

    @Bean
    ProductionAccess productionAccess(
            DatabaseClient databaseClient,
            PublishableKeyRepository publishableKeys,
            ReactiveTransactionManager transactionManager,
            Clock clock,
            SecureRandom random) {
        return new ProductionAccess(
                new AccessRequestRepository(databaseClient),
                publishableKeys,
                TransactionalOperator.create(transactionManager),
                clock,
                random);
    }
}
