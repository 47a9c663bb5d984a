package dev.cryptopay.gateway.support;

import dev.cryptopay.gateway.admin.AdminServer;
import java.time.Duration;
import org.junit.jupiter.api.BeforeEach;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.web.reactive.server.WebTestClient;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Base of the tests that run against the main gateway (in-memory limits and replay guard, 1 s key cache). All
 * subclasses share one Spring context: keep the annotations and properties here, not in subclasses.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
public abstract class GatewayTestBase {

    protected static final JsonMapper JSON = JsonMapper.builder().build();

    @DynamicPropertySource
    static void gatewayProperties(DynamicPropertyRegistry registry) {
        TestEnvironment.gatewayProperties().forEach((name, value) -> registry.add(name, () -> value));
    }

    @LocalServerPort
    protected int port;

    @Autowired
    protected AdminServer adminServer;

    protected WebTestClient client;
    protected AdminClient admin;

    @BeforeEach
    void clients() {
        client = WebTestClient.bindToServer()
                .baseUrl(baseUrl())
                .responseTimeout(Duration.ofSeconds(15))
                .build();
        admin = new AdminClient(adminServer.port());
    }

    protected String baseUrl() {
        return "http://127.0.0.1:" + port;
    }

    protected static JsonNode json(byte[] body) {
        return JSON.readTree(body);
    }

    protected static JsonNode json(WebTestClient.ResponseSpec response) {
        return JSON.readTree(response.expectBody().returnResult().getResponseBody());
    }
}
