package dev.cryptopay.chainwatcher.report;

import dev.cryptopay.auth.internal.InternalHeaders;
import dev.cryptopay.auth.internal.InternalRequest;
import dev.cryptopay.auth.internal.InternalTokenSigner;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.function.BiFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.MediaType;
import org.springframework.stereotype.Component;
import org.springframework.web.reactive.function.client.WebClient;
import reactor.core.publisher.Mono;
import tools.jackson.databind.json.JsonMapper;

/**
 * The one way a report leaves the watcher, whoever receives it: a POST of a record written by the service's JSON
 * mapper (snake_case, declaration order) with an internal token of the caller {@code chain-watcher} (signed with its own
 * private key) for the receiving service alone, bound to the method, the path and the exact body bytes sent, and issued when the request is made (a retry next pass
 * gets a fresh one). Answers what became of it ({@link ReportOutcome}): only a 2xx acknowledges a report; a 4xx is
 * a refusal, logged as an error and counted ({@code chain_watcher_report_refusals_total{receiver,status}}), which the
 * caller sends again no sooner than {@link ReportOutcome#RESEND_REFUSED_AFTER}; a 5xx, a timeout or a connection error
 * is sent again on the next pass. Never an error.
 */
@Component
class ReportSender {

    private static final Logger log = LoggerFactory.getLogger(ReportSender.class);
    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    private final WebClient web;
    private final InternalTokenSigner tokens;
    private final JsonMapper json;
    private final Clock clock;
    private final MeterRegistry registry;

    ReportSender(ReportAuthProperties auth, JsonMapper json, Clock clock, MeterRegistry registry) {
        this.web = WebClient.create();
        this.tokens = auth.signer();
        this.json = json;
        this.clock = clock;
        this.registry = registry;
    }

    /**
     * POSTs {@code body} to {@code baseUrl + path}.
     *
     * @param receiver the receiving service ({@code InternalCallers}): the token's audience, and named in log lines
     * @param what     what is reported, for log lines (e.g. "the report of 0x… (pending of link …)")
     */
    Mono<ReportOutcome> post(String receiver, String baseUrl, String path, Object body, String what) {
        return exchange(receiver, baseUrl, path, body, (status, answer) -> {
                    if (status >= 200 && status < 300) {
                        return ReportOutcome.ACKNOWLEDGED;
                    }
                    String text = new String(answer, StandardCharsets.UTF_8);
                    if (status >= 400 && status < 500) {
                        log.error(
                                "{} refused {}: {} {} (sent again in {})",
                                receiver,
                                what,
                                status,
                                text,
                                ReportOutcome.RESEND_REFUSED_AFTER);
                        refused(receiver, status);
                        return ReportOutcome.REFUSED;
                    }
                    log.warn("{} answered {} to {}: {}", receiver, status, what, text);
                    return ReportOutcome.NOT_DELIVERED;
                })
                .onErrorResume(failure -> {
                    log.warn("Sending {} to {} failed, sent again next pass: {}", what, receiver, failure.toString());
                    return Mono.just(ReportOutcome.NOT_DELIVERED);
                });
    }

    /**
     * POSTs {@code body} to {@code baseUrl + path}, signed as a report is, and answers the 2xx answer read as
     * {@code answer}; anything else (another status, an answer that is not one, a timeout, a connection error) is an
     * error that says what happened. For questions, which change nothing: the caller decides what to do without an
     * answer.
     */
    <T> Mono<T> ask(String receiver, String baseUrl, String path, Object body, Class<T> answer) {
        return exchange(receiver, baseUrl, path, body, (status, bytes) -> {
            if (status < 200 || status >= 300) {
                throw new IllegalStateException(receiver + " answered " + status + " to " + path + ": "
                        + new String(bytes, StandardCharsets.UTF_8));
            }
            return json.readValue(bytes, answer);
        });
    }

    /**
     * The one POST both make: {@code body} as JSON with a token bound to the method, the path and these bytes, issued
     * when the request is made (a retry gets a fresh one); the answer's status and bytes read by {@code read}, within
     * {@link #TIMEOUT}.
     */
    private <T> Mono<T> exchange(
            String receiver, String baseUrl, String path, Object body, BiFunction<Integer, byte[], T> read) {
        // The token binds the path exactly as sent, so the full address is made here (a base URL may have a path).
        URI target = URI.create(baseUrl.replaceAll("/+$", "") + path);
        byte[] bytes = json.writeValueAsBytes(body);
        InternalRequest signed = InternalRequest.of("POST", target.getRawPath(), target.getRawQuery(), bytes);
        return Mono.defer(() -> web.post()
                        .uri(target)
                        .header(InternalHeaders.INTERNAL_AUTH, tokens.issue(receiver, signed, clock.instant()))
                        .contentType(MediaType.APPLICATION_JSON)
                        .bodyValue(bytes)
                        .exchangeToMono(response -> response.bodyToMono(byte[].class)
                                .defaultIfEmpty(new byte[0])
                                .map(answer -> read.apply(response.statusCode().value(), answer))))
                .timeout(TIMEOUT);
    }

    private void refused(String receiver, int status) {
        Counter.builder("chain.watcher.report.refusals")
                .description("Reports a receiver refused (4xx); each is sent again no sooner than a minute later")
                .tags("receiver", receiver, "status", Integer.toString(status))
                .register(registry)
                .increment();
    }
}
