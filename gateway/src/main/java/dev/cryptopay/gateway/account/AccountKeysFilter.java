package dev.cryptopay.gateway.account;

import dev.cryptopay.auth.Mode;
import dev.cryptopay.gateway.account.KeyBodies.ApiKeyBody;
import dev.cryptopay.gateway.account.KeyBodies.CreatedKeyBody;
import dev.cryptopay.gateway.account.KeyBodies.KeyPage;
import dev.cryptopay.gateway.account.KeyBodies.PublishableKeyBody;
import dev.cryptopay.gateway.admin.MerchantAdmin;
import dev.cryptopay.gateway.auth.SignatureAuthenticationFilter;
import dev.cryptopay.gateway.keys.ApiKeyRegistry;
import dev.cryptopay.gateway.keys.KeyRepository;
import dev.cryptopay.gateway.keys.KeyRevocations;
import dev.cryptopay.gateway.keys.KeyScope;
import dev.cryptopay.gateway.keys.PublishableKeyRepository;
import dev.cryptopay.gateway.keys.ResolvedKey;
import dev.cryptopay.gateway.production.ProductionAccess;
import dev.cryptopay.gateway.routing.AnsweringFilter;
import dev.cryptopay.gateway.securitylog.SecurityAction;
import dev.cryptopay.gateway.securitylog.SecurityLogFilter;
import dev.cryptopay.service.error.ApiException;
import dev.cryptopay.service.request.Field;
import dev.cryptopay.service.request.ListQuery;
import dev.cryptopay.service.request.PageRequest;
import dev.cryptopay.service.request.TextField;
import dev.cryptopay.service.request.Violations;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import org.springframework.cloud.gateway.support.ServerWebExchangeUtils;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The merchant's own keys, answered by the gateway: {@code GET /api/v1/account/keys} (one page of the calling key's
 * mode's API keys, and its publishable keys), {@code POST /api/v1/account/keys} (a new API key; a live key from a
 * test key only once production access was approved) and {@code DELETE /api/v1/account/keys/{id}} (revoke an API
 * key or publishable key of the merchant and mode; never the key signing that very request).
 */
public class AccountKeysFilter extends AnsweringFilter {

    /** The path variable of {@code DELETE /api/v1/account/keys/{id}}. */
    public static final String KEY_ID = "id";

    private static final TextField MODE =
            Field.string("mode").oneOf(List.of("test", "live")).code("invalid_mode");
    private static final TextField ALGORITHM = Field.string("algorithm").length(1, 32);
    private static final TextField PUBLIC_KEY = Field.string("public_key").length(1, 16_384);
    private static final String SCOPES = "scopes";

    private final MerchantAdmin admin;
    private final KeyRepository keys;
    private final PublishableKeyRepository publishableKeys;
    private final KeyRevocations revocations;
    private final ProductionAccess productionAccess;
    private final ApiKeyRegistry registry;
    private final Clock clock;

    public AccountKeysFilter(
            MerchantAdmin admin,
            KeyRepository keys,
            PublishableKeyRepository publishableKeys,
            KeyRevocations revocations,
            ProductionAccess productionAccess,
            ApiKeyRegistry registry,
            Clock clock,
            JsonMapper json) {
        super(json);
        this.admin = admin;
        this.keys = keys;
        this.publishableKeys = publishableKeys;
        this.revocations = revocations;
        this.productionAccess = productionAccess;
        this.registry = registry;
        this.clock = clock;
    }

    @Override
    protected Mono<Answer> answer(ServerWebExchange exchange, ResolvedKey caller, byte[] body) {
        ResolvedKey key = required(caller);
        HttpMethod method = exchange.getRequest().getMethod();
        if (HttpMethod.GET.equals(method)) {
            return list(exchange, key);
        }
        if (HttpMethod.POST.equals(method)) {
            return create(exchange, key, jsonObject(body));
        }
        return revoke(
                exchange,
                key,
                ServerWebExchangeUtils.getUriTemplateVariables(exchange).get(KEY_ID));
    }

    private Mono<Answer> list(ServerWebExchange exchange, ResolvedKey caller) {
        ListQuery query = new ListQuery(exchange.getRequest().getQueryParams());
        PageRequest page = query.page("page_size", 20, 100);
        query.throwIfAny();
        UUID merchantId = caller.identity().merchantId();
        Mode mode = caller.identity().mode();
        // One query after the other, each read to the end.
        return keys.findKeysOfMerchant(merchantId, mode, page.offset(), page.size())
                .map(stored -> ApiKeyBody.of(stored, caller.keyId()))
                .collectList()
                .flatMap(found -> keys.countKeys(merchantId, mode)
                        .flatMap(total -> publishableKeys
                                .findKeysOfMerchant(merchantId, mode)
                                .map(PublishableKeyBody::of)
                                .collectList()
                                .map(publishable -> Answer.ok(new KeyPage(
                                        found,
                                        publishable,
                                        total,
                                        page.page(),
                                        page.size(),
                                        (total + page.size() - 1) / page.size())))));
    }

    private Mono<Answer> create(ServerWebExchange exchange, ResolvedKey caller, JsonNode request) {
        Violations violations = new Violations();
        List<String> known = new ArrayList<>(Field.names(MODE, ALGORITHM, PUBLIC_KEY));
        known.add(SCOPES);
        violations.rejectUnknown(request, "", known);
        String modeText = MODE.read(request, violations);
        String algorithm = ALGORITHM.read(request, violations);
        String publicKey = PUBLIC_KEY.read(request, violations);
        Set<KeyScope> scopes = scopes(request.get(SCOPES), caller.scopes(), violations);
        violations.throwIfAny();
        // A key gives only what it has itself: a restricted key never makes a stronger one.
        Optional<KeyScope> beyond = KeyScope.firstMissing(scopes, caller.scopes());
        if (beyond.isPresent()) {
            return Mono.error(SignatureAuthenticationFilter.missingScope(beyond.get()));
        }
        Mode callerMode = caller.identity().mode();
        Mode mode = modeText == null ? callerMode : Mode.fromWireName(modeText);
        UUID merchantId = caller.identity().merchantId();
        Mono<Boolean> allowed = mode == Mode.LIVE && callerMode == Mode.TEST
                ? productionAccess.isApproved(merchantId)
                : Mono.just(true);
        return allowed.flatMap(yes -> {
            if (!yes) {
                return Mono.error(new ApiException(
                        HttpStatus.FORBIDDEN,
                        "production_access_required",
                        "Live keys need production access: ask with POST /account/production_access and create "
                                + "the key once it is approved"));
            }
            return admin.createKey(merchantId.toString(), mode.wireName(), algorithm, publicKey, scopes)
                    .doOnNext(created -> logged(
                            exchange,
                            SecurityAction.API_KEY_CREATED,
                            created.stored().id()))
                    .map(created -> Answer.created(CreatedKeyBody.of(created)));
        });
    }

    /**
     * The {@code scopes} of a new key: a non-empty array of known scope names (duplicates count once); absent or null,
     * the calling key's own.
     */
    private static Set<KeyScope> scopes(JsonNode value, Set<KeyScope> callers, Violations violations) {
        if (value == null || value.isNull()) {
            return callers;
        }
        String rule = "scopes must be a non-empty array of " + String.join(", ", KeyScope.wireNames(KeyScope.ALL));
        if (!value.isArray() || value.isEmpty()) {
            violations.reject("invalid_scopes", SCOPES, rule);
            return Set.of();
        }
        EnumSet<KeyScope> scopes = EnumSet.noneOf(KeyScope.class);
        for (JsonNode item : value) {
            try {
                scopes.add(KeyScope.fromWireName(item.isString() ? item.asString() : ""));
            } catch (IllegalArgumentException unknown) {
                violations.reject("invalid_scopes", SCOPES, rule);
                return Set.of();
            }
        }
        return scopes;
    }

    /**
     * An API key or publishable key of the caller's merchant and mode; 204 also when it was revoked already. An API key
     * with a scope the caller lacks is not the caller's to revoke (403 naming it): a restricted key cannot lock out a
     * stronger one.
     */
    private Mono<Answer> revoke(ServerWebExchange exchange, ResolvedKey caller, String idText) {
        UUID id;
        try {
            id = UUID.fromString(idText == null ? "" : idText);
        } catch (IllegalArgumentException e) {
            return Mono.error(ApiException.notFound("No key with id " + idText));
        }
        if (id.equals(caller.keyId())) {
            return Mono.error(ApiException.conflict(
                    "current_key", "This key signs this very request; revoke it while signed in with another key"));
        }
        UUID merchantId = caller.identity().merchantId();
        Mode mode = caller.identity().mode();
        Instant now = clock.instant().truncatedTo(ChronoUnit.MICROS);
        Mono<SecurityAction> apiKey = keys.findOwn(id, merchantId, mode)
                .flatMap(target -> {
                    Optional<KeyScope> beyond = KeyScope.firstMissing(target.scopes(), caller.scopes());
                    if (beyond.isPresent()) {
                        return Mono.error(SignatureAuthenticationFilter.missingScope(beyond.get()));
                    }
                    return revocations.apiKey(id, merchantId, mode, now, caller.keyId());
                })
                .doOnNext(revoked -> registry.invalidateHash(revoked.keySha256()))
                .map(revoked -> SecurityAction.API_KEY_REVOKED);
        Mono<SecurityAction> publishable = Mono.defer(() -> revocations
                .publishableKey(id, merchantId, mode, now, caller.keyId())
                .doOnNext(revoked -> registry.invalidate(revoked.value()))
                .map(revoked -> SecurityAction.PUBLISHABLE_KEY_REVOKED));
        return apiKey.switchIfEmpty(publishable)
                .switchIfEmpty(Mono.error(() -> ApiException.notFound("No key with id " + idText)))
                .doOnNext(action -> logged(exchange, action, id))
                .map(revoked -> Answer.noContent());
    }

    /** Tells the security log what this request did ({@link SecurityLogFilter} writes it once it answered 2xx). */
    private static void logged(ServerWebExchange exchange, SecurityAction action, UUID target) {
        exchange.getAttributes().put(SecurityLogFilter.ANSWERED, new SecurityAction.Recognised(action, target));
    }
}
