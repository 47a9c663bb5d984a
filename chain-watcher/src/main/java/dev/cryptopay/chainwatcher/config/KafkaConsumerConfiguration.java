package dev.cryptopay.chainwatcher.config;

import dev.cryptopay.service.kafka.RetryForever;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.kafka.listener.CommonErrorHandler;

@Configuration(proxyBeanMethods = false)
class KafkaConsumerConfiguration {

    /**
     * A record whose watch could not be stored (the database is down, say) is read again until it is, never skipped:
     * the default handler would give up after ten tries and commit past it, and the link's address would never be
     * watched. Records the intake cannot use are skipped by the intake itself.
     */
    @Bean
    CommonErrorHandler retryForever() {
        return RetryForever.handler();
    }
}
