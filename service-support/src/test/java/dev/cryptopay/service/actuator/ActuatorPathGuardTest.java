package dev.cryptopay.service.actuator;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cryptopay.service.error.ProblemWriter;
import java.net.URI;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import org.springframework.mock.http.server.reactive.MockServerHttpRequest;
import org.springframework.mock.web.server.MockServerWebExchange;
import reactor.core.publisher.Mono;
import tools.jackson.databind.json.JsonMapper;

/** Which paths the guard refuses before Spring Boot's actuator reads them. */
class ActuatorPathGuardTest {

    private final ActuatorPathGuard guard = new ActuatorPathGuard(
            "/actuator", new ProblemWriter(JsonMapper.builder().build()));

    @Test
    void refusesAnEncodedSlashOrBackslashUnderTheActuator() {
        for (String path : new String[] {
            "/actuator/health/..%2F..%2Fetc", "/actuator/health/a%2fb", "/actuator/health/a%5Cb", "/actuator/x%2Fy"
        }) {
            MockServerWebExchange exchange = exchange(path);
            AtomicBoolean passed = new AtomicBoolean();

            guard.filter(exchange, next -> Mono.fromRunnable(() -> passed.set(true)))
                    .block();

            assertThat(passed).as(path).isFalse();
            assertThat(exchange.getResponse().getStatusCode()).as(path).isEqualTo(HttpStatus.BAD_REQUEST);
            assertThat(exchange.getResponse().getBodyAsString().block())
                    .as(path)
                    .contains("\"code\":\"invalid_path\"");
        }
    }

    @Test
    void passesEveryOtherPath() {
        for (String path : new String[] {
            "/actuator/health", "/actuator/health/liveness", "/actuator/health/%2E%2E", "/payment_links/a%2Fb"
        }) {
            AtomicBoolean passed = new AtomicBoolean();

            guard.filter(exchange(path), next -> Mono.fromRunnable(() -> passed.set(true)))
                    .block();

            assertThat(passed).as(path).isTrue();
        }
    }

    private static MockServerWebExchange exchange(String rawPath) {
        return MockServerWebExchange.from(
                MockServerHttpRequest.method(HttpMethod.GET, URI.create("http://localhost" + rawPath)));
    }
}
