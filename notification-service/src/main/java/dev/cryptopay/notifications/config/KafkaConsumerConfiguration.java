package dev.cryptopay.notifications.config;

import dev.cryptopay.service.kafka.RetryForever;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.kafka.listener.CommonErrorHandler;

@Configuration(proxyBeanMethods = false)
class KafkaConsumerConfiguration {

    /**
     * A poll whose intake failed (the database is down, say) is handed over again, whole and in order, until it
     * succeeds, never skipped: an event skipped would be an e-mail never written. Records that are not events do not
     * reach this handler; the intake passes over them.
     */
    @Bean
    CommonErrorHandler retryForever() {
        return RetryForever.handler();
    }
}
