package dev.cryptopay.subscriptions.subscription;

import dev.cryptopay.auth.internal.InternalCallers;
import dev.cryptopay.service.identity.AllowedCallers;
import dev.cryptopay.subscriptions.onchain.ChainLog;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;
import reactor.core.publisher.Mono;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code POST /internal/chain/logs}: the chain watcher reports a confirmed log of the subscription contract (or, with
 * {@code removed: true}, that a reorganisation took one away). Only the caller {@code chain-watcher} (its own secret)
 * may call it; the gateway never routes it. 201 with the outcome for a new log, 200 with the first outcome for a
 * repeated one: the watcher may report again after a crash or from a second instance.
 */
@RestController
@AllowedCallers(InternalCallers.CHAIN_WATCHER)
class ChainLogController {

    private final ChainFacts facts;
    private final JsonMapper json;

    ChainLogController(ChainFacts facts, JsonMapper json) {
        this.facts = facts;
        this.json = json;
    }

    /** What the log did: {@code applied}, {@code unmatched}, {@code duplicate} or {@code ignored}. */
    record Outcome(String outcome) {}

    @PostMapping(path = "/internal/chain/logs", produces = MediaType.APPLICATION_JSON_VALUE)
    Mono<ResponseEntity<Outcome>> report(@RequestBody(required = false) String body) {
        return Mono.fromSupplier(() -> ChainLog.parse(json, body))
                .flatMap(facts::report)
                .map(applied -> ResponseEntity.status(applied.known() ? 200 : 201)
                        .body(new Outcome(applied.outcome().wireName())));
    }
}
