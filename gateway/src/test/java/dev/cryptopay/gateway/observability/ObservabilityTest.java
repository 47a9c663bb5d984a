package dev.cryptopay.gateway.observability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cryptopay.gateway.support.GatewayTestBase;
import dev.cryptopay.gateway.support.MerchantKey;
import dev.cryptopay.gateway.support.SignedRequest;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

@ExtendWith(OutputCaptureExtension.class)
class ObservabilityTest extends GatewayTestBase {

    @Test
    void writesOneAccessLogLinePerRequestWithoutSecrets(CapturedOutput output) {
        MerchantKey key = admin.newMerchantKey();
        SignedRequest request = SignedRequest.of("POST", "/payment_links?secret_query=1")
                .body("{\"card\":\"4242\"}")
                .header("X-Request-Id", "obs-request-0001");
        String signature = request.signature(key);
        request.send(client, baseUrl(), key).expectStatus().isOk();
        SignedRequest.of("GET", "/payment_links")
                .signedPath("/wrong")
                .header("X-Request-Id", "obs-request-0002")
                .send(client, baseUrl(), key)
                .expectStatus()
                .isUnauthorized();

        String log = output.getOut();
        assertThat(log)
                .containsPattern("access method=POST path=/api/v1/payment_links status=200 latency_ms=\\d+ key="
                        + key.prefix() + " request_id=obs-request-0001");
        assertThat(log)
                .containsPattern("access method=GET path=/api/v1/payment_links status=401 latency_ms=\\d+ key="
                        + key.prefix() + " request_id=obs-request-0002");
        assertThat(log)
                .containsPattern("auth_failure reason=invalid_signature method=GET path=/api/v1/payment_links key="
                        + key.prefix() + " request_id=obs-request-0002");
        assertThat(log)
                .doesNotContain(key.apiKey())
                .doesNotContain(signature)
                .doesNotContain("4242")
                .doesNotContain("secret_query");
    }

    @Test
    void exposesGatewayMetricsForPrometheus() {
        MerchantKey key = admin.newMerchantKey();
        SignedRequest.of("GET", "/webhook-endpoints")
                .send(client, baseUrl(), key)
                .expectStatus()
                .isOk();
        SignedRequest.of("GET", "/webhook-endpoints")
                .withoutTimestamp()
                .send(client, baseUrl(), key)
                .expectStatus()
                .isUnauthorized();
        byte[] body = client.get()
                .uri(baseUrl() + "/actuator/prometheus")
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody()
                .returnResult()
                .getResponseBody();
        String metrics = new String(body, StandardCharsets.UTF_8);
        assertThat(metrics).contains("gateway_auth_failures_total{reason=\"missing_timestamp\"}");
        assertThat(metrics).containsPattern("gateway_upstream_latency_seconds_count\\{[^}]*route=\"webhooks\"");
        assertThat(metrics).contains("spring_cloud_gateway_requests");
    }
}
