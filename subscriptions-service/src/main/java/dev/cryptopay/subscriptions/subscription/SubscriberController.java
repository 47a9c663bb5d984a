package dev.cryptopay.subscriptions.subscription;

import dev.cryptopay.auth.internal.InternalHeaders;
import dev.cryptopay.auth.internal.MerchantIdentity;
import dev.cryptopay.service.idempotency.IdempotencyStore;
import dev.cryptopay.service.response.Pagination;
import dev.cryptopay.service.response.PathIds;
import dev.cryptopay.subscriptions.merchant.MerchantNames;
import java.time.Clock;
import java.util.List;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.util.MultiValueMap;
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

/** The merchant routes of subscribers and invitations. */
@RestController
class SubscriberController {

    private final SubscriberService service;
    private final IdempotencyStore idempotency;
    private final MerchantNames names;
    private final JsonMapper json;
    private final Clock clock;

    SubscriberController(
            SubscriberService service,
            IdempotencyStore idempotency,
            MerchantNames names,
            JsonMapper json,
            Clock clock) {
        this.service = service;
        this.names = names;
        this.idempotency = idempotency;
        this.json = json;
        this.clock = clock;
    }

    /** SubscriberListResponse: {@code data} holds the same subscribers as models, without nested objects. */
    record SubscriberListResponse(
            List<SubscriberResponse> subscribers,
            List<SubscriberResponse.Model> data,
            long total,
            int page,
            int pageSize,
            long totalPages) {}

    /** InvitationListResponse: subscribers still {@code invitation_sent}. */
    record InvitationListResponse(
            List<SubscriberResponse> invitations,
            List<SubscriberResponse.Model> data,
            long total,
            int page,
            int pageSize,
            long totalPages) {}

    @PostMapping(
            path = {"/subscriber", "/subscriber/"},
            produces = MediaType.APPLICATION_JSON_VALUE)
    Mono<ResponseEntity<String>> create(
            MerchantIdentity merchant,
            @RequestBody(required = false) String body,
            @RequestHeader(name = IdempotencyStore.HEADER, required = false) String idempotencyKey,
            @RequestHeader(name = InternalHeaders.MERCHANT_NAME, required = false) String merchantName) {
        String key = IdempotencyStore.validate(idempotencyKey);
        // The name customers see on the subscribe page, kept as the gateway forwards it (never fails the request).
        return names.remember(merchant, merchantName)
                .then(Mono.fromSupplier(() -> SubscriberRequest.parse(json, body))
                        .flatMap(request -> idempotency.created(
                                merchant,
                                key,
                                body,
                                clock.instant(),
                                () -> service.create(merchant, request)
                                        .map(view -> json.writeValueAsString(SubscriberResponse.of(view, json))))));
    }

    @GetMapping({"/subscriber", "/subscriber/"})
    Mono<SubscriberListResponse> list(MerchantIdentity merchant, @RequestParam MultiValueMap<String, String> params) {
        return Mono.fromSupplier(() -> SubscriberQuery.parse(params))
                .flatMap(query -> service.list(merchant, query, false).map(listing -> listResponse(query, listing)));
    }

    @GetMapping("/subscriber/plan/{planId}")
    Mono<SubscriberListResponse> listOfPlan(
            MerchantIdentity merchant,
            @PathVariable String planId,
            @RequestParam MultiValueMap<String, String> params) {
        return Mono.fromSupplier(() -> SubscriberQuery.parse(params))
                .flatMap(query -> service.listOfPlan(merchant, PathIds.uuid(planId, "subscription plan"), query)
                        .map(listing -> listResponse(query, listing)));
    }

    @GetMapping("/subscriber/{id}")
    Mono<SubscriberResponse> get(MerchantIdentity merchant, @PathVariable String id) {
        return Mono.fromSupplier(() -> PathIds.uuid(id, "subscriber"))
                .flatMap(subscriberId -> service.get(merchant, subscriberId))
                .map(view -> SubscriberResponse.of(view, json));
    }

    @PutMapping(path = "/subscriber/{id}", produces = MediaType.APPLICATION_JSON_VALUE)
    Mono<SubscriberResponse> update(
            MerchantIdentity merchant, @PathVariable String id, @RequestBody(required = false) String body) {
        return Mono.fromSupplier(() -> PathIds.uuid(id, "subscriber"))
                .flatMap(subscriberId ->
                        service.update(merchant, subscriberId, SubscriberRequest.Update.parse(json, body)))
                .map(view -> SubscriberResponse.of(view, json));
    }

    @GetMapping({"/invitations", "/invitations/"})
    Mono<InvitationListResponse> invitations(
            MerchantIdentity merchant, @RequestParam MultiValueMap<String, String> params) {
        return Mono.fromSupplier(() -> SubscriberQuery.parse(params))
                .flatMap(query -> service.list(merchant, query, true).map(listing -> {
                    List<SubscriberResponse> invitations = responses(listing);
                    return new InvitationListResponse(
                            invitations,
                            invitations.stream().map(SubscriberResponse::model).toList(),
                            listing.total(),
                            query.page().page(),
                            query.page().size(),
                            Pagination.of(query.page(), listing.total()).totalPages());
                }));
    }

    private List<SubscriberResponse> responses(SubscriberService.SubscriberListing listing) {
        return listing.subscribers().stream()
                .map(view -> SubscriberResponse.of(view, json))
                .toList();
    }

    private SubscriberListResponse listResponse(SubscriberQuery query, SubscriberService.SubscriberListing listing) {
        List<SubscriberResponse> subscribers = responses(listing);
        return new SubscriberListResponse(
                subscribers,
                subscribers.stream().map(SubscriberResponse::model).toList(),
                listing.total(),
                query.page().page(),
                query.page().size(),
                Pagination.of(query.page(), listing.total()).totalPages());
    }
}
