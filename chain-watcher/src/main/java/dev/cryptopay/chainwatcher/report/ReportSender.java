package dev.cryptopay.chainwatcher.report;

import dev.cryptopay.auth.internal.InternalCallers;
import dev.cryptopay.auth.internal.InternalHeaders;
import dev.cryptopay.auth.internal.InternalIdentityToken;
import dev.cryptopay.auth.internal.InternalRequest;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.MediaType;
import org.springframework.stereotype.Component;
import org.springframework.web.reactive.function.client.WebClient;
import reactor.core.publisher.Mono;
import tools.jackson.databind.json.JsonMapper;

/**
 * The one way a report leaves the watcher, whoever receives it: a POST of a record written by the service's JSON
 * mapper (snake_case, declaration order) with an internal token of the caller {@code chain-watcher} (its own secret),
 * bound to the method, the path and the exact body bytes sent, and issued when the request is made (a retry next pass
 * gets a fresh one). Answers whether the receiver acknowledged the report: 2xx, or a 4xx it will answer forever
 * (logged as an error, not retried); a 5xx, a timeout or a connection error answers false, and the report is sent
 * again on the next pass. Never an error.
 */
@Component
class ReportSender {

    private static final Logger log = LoggerFactory.getLogger(ReportSender.class);
    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    private final WebClient web;
    private final InternalIdentityToken tokens;
    private final JsonMapper json;
    private final Clock clock;

    ReportSender(ReportAuthProperties auth, JsonMapper json, Clock clock) {
        this.web = WebClient.create();
        this.tokens = InternalIdentityToken.fromSecret(InternalCallers.CHAIN_WATCHER, auth.secret());
        this.json = json;
        this.clock = clock;
    }

    /**
     * POSTs {@code body} to {@code baseUrl + path}.
     *
     * @param receiver the receiving service, for log lines
     * @param what     what is reported, for log lines (e.g. "the report of 0x… (pending of link …)")
     */
    Mono<Boolean> post(String receiver, String baseUrl, String path, Object body, String what) {
        // The token binds the path exactly as sent, so the full address is made here (a base URL may have a path).
        URI target = URI.create(baseUrl.replaceAll("/+$", "") + path);
        byte[] bytes = json.writeValueAsBytes(body);
        InternalRequest signed = InternalRequest.of("POST", target.getRawPath(), target.getRawQuery(), bytes);
        return Mono.defer(() -> web.post()
                        .uri(target)
                        .header(InternalHeaders.INTERNAL_AUTH, tokens.issue(null, signed, clock.instant()))
                        .contentType(MediaType.APPLICATION_JSON)
                        .bodyValue(bytes)
                        .exchangeToMono(response -> response.bodyToMono(String.class)
                                .defaultIfEmpty("")
                                .map(text -> {
                                    int status = response.statusCode().value();
                                    if (status >= 500) {
                                        log.warn("{} answered {} to {}: {}", receiver, status, what, text);
                                        return false;
                                    }
                                    if (status >= 400) {
                                        log.error("{} refused {}: {} {}", receiver, what, status, text);
                                    }
                                    return true;
                                })))
                .timeout(TIMEOUT)
                .onErrorResume(failure -> {
                    log.warn("Sending {} to {} failed, sent again next pass: {}", what, receiver, failure.toString());
                    return Mono.just(false);
                });
    }
}
