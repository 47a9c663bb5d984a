package dev.cryptopay.service.error;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cryptopay.service.requestid.RequestIdFilter;
import dev.cryptopay.service.requestid.RequestIds;
import java.net.ConnectException;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.mock.http.server.reactive.MockServerHttpRequest;
import org.springframework.mock.web.server.MockServerWebExchange;
import reactor.core.publisher.Mono;
import tools.jackson.databind.json.JsonMapper;

/** How an application's own {@link FailureMapping}s take part in the one error body. */
class ProblemExceptionHandlerTest {

    private static final ProblemWriter WRITER =
            new ProblemWriter(JsonMapper.builder().build());

    /** A proxy's reading of a refused connection, which the shared mappings take for the database. */
    private static final FailureMapping UPSTREAM =
            (exchange, failure) -> Failures.causedBy(failure, ConnectException.class)
                    ? new ApiException(HttpStatus.SERVICE_UNAVAILABLE, "upstream_unavailable", "Upstream down")
                    : null;

    @Test
    void asksTheMappingsBeforeTheSharedOnesAndRendersTheirAnswerTheSameWay() {
        MockServerWebExchange exchange = exchange();

        handle(new ProblemExceptionHandler(WRITER, List.of(UPSTREAM)), exchange, new ConnectException("refused"));

        assertThat(exchange.getResponse().getStatusCode()).isEqualTo(HttpStatus.SERVICE_UNAVAILABLE);
        assertThat(exchange.getResponse().getHeaders().getContentType()).isEqualTo(MediaType.APPLICATION_PROBLEM_JSON);
        assertThat(exchange.getResponse().getHeaders().getFirst(HttpHeaders.RETRY_AFTER))
                .isEqualTo("2");
        assertThat(exchange.getResponse().getBodyAsString().block())
                .isEqualTo("{\"type\":\"about:blank\",\"title\":\"Service Unavailable\",\"status\":503,"
                        + "\"detail\":\"Upstream down\",\"code\":\"upstream_unavailable\",\"message\":\"Upstream down\","
                        + "\"request_id\":\"req-00000001\"}");
    }

    @Test
    void fallsBackToTheSharedMappingsWhenNoMappingAnswers() {
        MockServerWebExchange exchange = exchange();

        handle(new ProblemExceptionHandler(WRITER, List.of(UPSTREAM)), exchange, new IllegalStateException("boom"));

        assertThat(exchange.getResponse().getStatusCode()).isEqualTo(HttpStatus.INTERNAL_SERVER_ERROR);
        assertThat(exchange.getResponse().getBodyAsString().block())
                .contains("\"code\":\"internal_error\"")
                .doesNotContain("boom");
    }

    @Test
    void withoutMappingsARefusedConnectionIsTheDatabase() {
        MockServerWebExchange exchange = exchange();

        handle(new ProblemExceptionHandler(WRITER), exchange, new ConnectException("refused"));

        assertThat(exchange.getResponse().getStatusCode()).isEqualTo(HttpStatus.SERVICE_UNAVAILABLE);
        assertThat(exchange.getResponse().getBodyAsString().block()).contains("\"code\":\"database_unavailable\"");
    }

    @Test
    void rendersAnApiExceptionAsItIsWithoutAskingTheMappings() {
        MockServerWebExchange exchange = exchange();
        FailureMapping never = (ignored, failure) -> {
            throw new AssertionError("asked about " + failure);
        };

        handle(
                new ProblemExceptionHandler(WRITER, List.of(never)),
                exchange,
                ApiException.conflict("duplicate", "Already there"));

        assertThat(exchange.getResponse().getStatusCode()).isEqualTo(HttpStatus.CONFLICT);
        assertThat(exchange.getResponse().getBodyAsString().block()).contains("\"code\":\"duplicate\"");
    }

    @Test
    void theFirstMappingThatAnswersWins() {
        MockServerWebExchange exchange = exchange();
        FailureMapping other = (ignored, failure) -> ApiException.badRequest("other", "Other");

        handle(new ProblemExceptionHandler(WRITER, List.of(UPSTREAM, other)), exchange, new ConnectException("x"));

        assertThat(exchange.getResponse().getBodyAsString().block()).contains("\"code\":\"upstream_unavailable\"");
    }

    @Test
    void whereNamesMethodPathAndRequestId() {
        assertThat(Failures.where(exchange())).isEqualTo("GET /things/1 (request req-00000001)");
    }

    private static void handle(ProblemExceptionHandler handler, MockServerWebExchange exchange, Throwable failure) {
        handler.handle(exchange, failure).block();
    }

    /** An exchange past the request id filter, as every failure the handler sees is. */
    private static MockServerWebExchange exchange() {
        MockServerWebExchange exchange = MockServerWebExchange.from(
                MockServerHttpRequest.get("/things/1").header(RequestIds.HEADER, "req-00000001"));
        new RequestIdFilter().filter(exchange, ignored -> Mono.empty()).block();
        return exchange;
    }
}
