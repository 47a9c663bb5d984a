package dev.cryptopay.subscriptions;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class SubscriptionsApplicationTest extends SubscriptionsTestBase {

    @Test
    void startsAndReportsHealthUpWithMetrics() {
        assertThat(read(web.get()
                                .uri("/actuator/health")
                                .exchange()
                                .expectStatus()
                                .isOk())
                        .get("status")
                        .asString())
                .isEqualTo("UP");
        String metrics = prometheus();
        assertThat(metrics).contains("jvm_memory_used_bytes");
    }

    @Test
    void refusesMerchantRoutesWithoutTheGatewaysToken() {
        web.get().uri("/subscriptions/plans/").exchange().expectStatus().isUnauthorized();
        web.get().uri("/subscriber/").exchange().expectStatus().isUnauthorized();
    }
}
