package dev.cryptopay.webhooks.operations;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.DescribeClusterOptions;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.ReactiveHealthIndicator;
import org.springframework.kafka.core.KafkaAdmin;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/** Health shows whether the Kafka cluster answers; the database has Spring Boot's own R2DBC indicator. */
@Component("kafka")
class KafkaHealthIndicator implements ReactiveHealthIndicator {

    private final KafkaAdmin kafkaAdmin;

    KafkaHealthIndicator(KafkaAdmin kafkaAdmin) {
        this.kafkaAdmin = kafkaAdmin;
    }

    @Override
    public Mono<Health> health() {
        return Mono.fromCallable(() -> {
                    try (Admin admin = Admin.create(kafkaAdmin.getConfigurationProperties())) {
                        var cluster = admin.describeCluster(new DescribeClusterOptions().timeoutMs(3000));
                        String clusterId = cluster.clusterId().get(4, TimeUnit.SECONDS);
                        int nodes = cluster.nodes().get(4, TimeUnit.SECONDS).size();
                        return Health.up()
                                .withDetail("clusterId", clusterId)
                                .withDetail("nodes", nodes)
                                .build();
                    }
                })
                .subscribeOn(Schedulers.boundedElastic())
                .timeout(Duration.ofSeconds(6))
                .onErrorResume(failure -> Mono.just(
                        Health.down().withDetail("error", failure.toString()).build()));
    }
}
