package dev.cryptopay.webhooks.config;

import dev.cryptopay.service.kafka.RetryForever;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.kafka.listener.CommonErrorHandler;

@Configuration(proxyBeanMethods = false)
class KafkaConsumerConfiguration {

    /**
     * A poll whose intake failed (the database is down, say) is handed over again, whole and in order, until it
     * succeeds, never skipped: the default handler would give up after nine tries and commit past it, losing its
     * events. Invalid records do not reach this handler; the intake parks them.
     */
    @Bean
    CommonErrorHandler retryForever() {
        return RetryForever.handler();
    }
}
