package dev.cryptopay.subscriptions.keeper;

import dev.cryptopay.auth.internal.InternalCallers;
import dev.cryptopay.service.identity.AllowedCallers;
import java.util.List;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;
import reactor.core.publisher.Mono;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code POST /internal/keeper/scope}: the chain watcher's keeper asks which of the on-chain subscriptions it is about
 * to check or collect the platform answers for ({@link KeeperScope}). Only the caller {@code chain-watcher} may call it;
 * the gateway never routes it. A read: nothing changes, so the keeper may ask as often as it passes.
 */
@RestController
@AllowedCallers(InternalCallers.CHAIN_WATCHER)
class KeeperScopeController {

    private final KeeperScope scope;
    private final JsonMapper json;

    KeeperScopeController(KeeperScope scope, JsonMapper json) {
        this.scope = scope;
        this.json = json;
    }

    /** One answer per id asked, in the order asked. */
    record Answers(List<KeeperScope.Answer> subscriptions) {}

    @PostMapping(path = "/internal/keeper/scope", produces = MediaType.APPLICATION_JSON_VALUE)
    Mono<Answers> scope(@RequestBody(required = false) String body) {
        return Mono.fromSupplier(() -> KeeperScopeRequest.parse(json, body))
                .flatMap(scope::answer)
                .map(Answers::new);
    }
}
