package dev.cryptopay.gateway.signup;

import dev.cryptopay.gateway.keys.KeyRepository;
import dev.cryptopay.gateway.keys.PublishableKeyRepository;
import java.security.SecureRandom;
import java.time.Clock;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.transaction.ReactiveTransactionManager;
import org.springframework.transaction.reactive.TransactionalOperator;
import tools.jackson.databind.json.JsonMapper;

/** The sign-up route's filter, only in the web application and only with {@code gateway.signup.enabled=true}. */
@Configuration(proxyBeanMethods = false)
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.REACTIVE)
@EnableConfigurationProperties(SignupProperties.class)
public class SignupConfiguration {

    @Bean
    @ConditionalOnProperty(name = "gateway.signup.enabled", havingValue = "true")
    SignupFilter signupFilter(
            KeyRepository keys,
            PublishableKeyRepository publishableKeys,
            ReactiveTransactionManager transactionManager,
            Clock clock,
            SecureRandom random,
            JsonMapper json) {
        return new SignupFilter(
                new Signup(keys, publishableKeys, TransactionalOperator.create(transactionManager), clock, random),
                json);
    }
}
