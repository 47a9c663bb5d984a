package dev.cryptopay.subscriptions.plan;

import dev.cryptopay.auth.internal.InternalHeaders;
import dev.cryptopay.auth.internal.MerchantIdentity;
import dev.cryptopay.service.idempotency.IdempotencyStore;
import dev.cryptopay.service.response.Pagination;
import dev.cryptopay.service.response.PathIds;
import dev.cryptopay.subscriptions.merchant.MerchantNames;
import java.time.Clock;
import java.util.List;
import java.util.UUID;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.util.MultiValueMap;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import reactor.core.publisher.Mono;
import tools.jackson.databind.json.JsonMapper;

/**
 * The merchant routes of subscription plans. Collection paths answer with or without the trailing slash the
 * interface document writes.
 */
@RestController
class PlanController {

    private final PlanService service;
    private final IdempotencyStore idempotency;
    private final MerchantNames names;
    private final JsonMapper json;
    private final Clock clock;

    PlanController(
            PlanService service, IdempotencyStore idempotency, MerchantNames names, JsonMapper json, Clock clock) {
        this.service = service;
        this.names = names;
        this.idempotency = idempotency;
        this.json = json;
        this.clock = clock;
    }

    /** What a wallet signs, and its digest. */
    record TypedDataResponse(PlanTypedData typedData, String digest) {}

    /** SubscriptionPlanListResponse. */
    record PlanListResponse(List<PlanResponse> plans, long total, int page, int pageSize, long totalPages) {}

    /** The answer of DELETE: the message and the plan as it now is. */
    record DeprecatedResponse(String message, PlanResponse data) {}

    @PostMapping(path = "/subscriptions/plans/typed-data", produces = MediaType.APPLICATION_JSON_VALUE)
    Mono<TypedDataResponse> typedData(MerchantIdentity merchant, @RequestBody(required = false) String body) {
        return Mono.fromSupplier(() -> PlanRequest.forSigning(json, body))
                .flatMap(request -> service.typedData(merchant, request))
                .map(typedData -> new TypedDataResponse(typedData, typedData.digest()));
    }

    /** The body is taken as text so each bad field can be named and the Idempotency-Key can hash the exact bytes. */
    @PostMapping(
            path = {"/subscriptions/plans", "/subscriptions/plans/"},
            produces = MediaType.APPLICATION_JSON_VALUE)
    Mono<ResponseEntity<String>> create(
            MerchantIdentity merchant,
            @RequestBody(required = false) String body,
            @RequestHeader(name = IdempotencyStore.HEADER, required = false) String idempotencyKey,
            @RequestHeader(name = InternalHeaders.MERCHANT_NAME, required = false) String merchantName) {
        String key = IdempotencyStore.validate(idempotencyKey);
        // The name customers see on the subscribe page, kept as the gateway forwards it (never fails the request).
        return names.remember(merchant, merchantName)
                .then(Mono.fromSupplier(() -> PlanRequest.forCreate(json, body))
                        .flatMap(request -> idempotency.created(
                                merchant,
                                key,
                                body,
                                clock.instant(),
                                () -> service.create(merchant, request)
                                        .map(view -> json.writeValueAsString(PlanResponse.of(view))))));
    }

    @GetMapping({"/subscriptions/plans", "/subscriptions/plans/"})
    Mono<PlanListResponse> list(MerchantIdentity merchant, @RequestParam MultiValueMap<String, String> params) {
        return Mono.fromSupplier(() -> PlanQuery.parse(params))
                .flatMap(query -> service.list(merchant, query)
                        .map(listing -> new PlanListResponse(
                                listing.plans().stream().map(PlanResponse::of).toList(),
                                listing.total(),
                                query.page().page(),
                                query.page().size(),
                                Pagination.of(query.page(), listing.total()).totalPages())));
    }

    @GetMapping("/subscriptions/plans/{id}")
    Mono<PlanResponse> get(MerchantIdentity merchant, @PathVariable String id) {
        return Mono.fromSupplier(() -> planId(id))
                .flatMap(planId -> service.get(merchant, planId))
                .map(PlanResponse::of);
    }

    @PutMapping(path = "/subscriptions/plans/{id}", produces = MediaType.APPLICATION_JSON_VALUE)
    Mono<PlanResponse> update(
            MerchantIdentity merchant, @PathVariable String id, @RequestBody(required = false) String body) {
        return Mono.fromSupplier(() -> planId(id))
                .flatMap(planId -> service.update(merchant, planId, PlanUpdate.parse(json, body)))
                .map(PlanResponse::of);
    }

    @DeleteMapping("/subscriptions/plans/{id}")
    Mono<DeprecatedResponse> deprecate(MerchantIdentity merchant, @PathVariable String id) {
        return Mono.fromSupplier(() -> planId(id))
                .flatMap(planId -> service.deprecate(merchant, planId))
                .map(view ->
                        new DeprecatedResponse("Subscription plan deprecated successfully", PlanResponse.of(view)));
    }

    private static UUID planId(String text) {
        return PathIds.uuid(text, "subscription plan");
    }
}
