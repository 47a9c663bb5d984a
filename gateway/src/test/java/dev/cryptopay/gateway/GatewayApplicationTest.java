package dev.cryptopay.gateway;

import dev.cryptopay.gateway.support.GatewayTestBase;
import org.junit.jupiter.api.Test;

class GatewayApplicationTest extends GatewayTestBase {

    @Test
    void startsAndReportsHealthUp() {
        client.get()
                .uri("/actuator/health")
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody()
                .jsonPath("$.status")
                .isEqualTo("UP");
    }
}
