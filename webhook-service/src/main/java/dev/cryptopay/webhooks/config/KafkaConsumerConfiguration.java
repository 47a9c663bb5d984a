package dev.cryptopay.webhooks.config;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.kafka.listener.CommonErrorHandler;
import org.springframework.kafka.listener.DefaultErrorHandler;
import org.springframework.util.backoff.ExponentialBackOff;

@Configuration(proxyBeanMethods = false)
class KafkaConsumerConfiguration {

    /**
     * A poll whose intake failed (the database is down, say) is handed over again, whole and in order, until it
     * succeeds, never skipped: the default handler would give up after nine tries and commit past it, losing its
     * events. Invalid records do not reach this handler; the intake parks them.
     */
    @Bean
    CommonErrorHandler retryForever() {
        ExponentialBackOff backOff = new ExponentialBackOff(200, 2.0);
        backOff.setMaxInterval(10_000);
        backOff.setMaxElapsedTime(Long.MAX_VALUE);
        return new DefaultErrorHandler(backOff);
    }
}
