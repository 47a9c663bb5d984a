package dev.cryptopay.subscriptions.subscription;

import dev.cryptopay.auth.internal.MerchantIdentity;
import dev.cryptopay.service.response.Pagination;
import dev.cryptopay.service.response.PathIds;
import dev.cryptopay.subscriptions.subscription.LinkResponse.Audience;
import java.time.Clock;
import java.util.List;
import org.springframework.http.MediaType;
import org.springframework.util.MultiValueMap;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import reactor.core.publisher.Mono;
import tools.jackson.databind.json.JsonMapper;

/** The merchant's reads of subscription links (links are made by the customer's enrolment). */
@RestController
class LinkController {

    private final LinkService service;
    private final LinkUpdateService updates;
    private final JsonMapper json;
    private final Clock clock;

    LinkController(LinkService service, LinkUpdateService updates, JsonMapper json, Clock clock) {
        this.service = service;
        this.updates = updates;
        this.json = json;
        this.clock = clock;
    }

    /** SubscriptionLinkListResponse. */
    record LinkListResponse(List<LinkResponse> links, long total, int page, int pageSize, long totalPages) {}

    @GetMapping({"/subscriptions/link", "/subscriptions/link/"})
    Mono<LinkListResponse> list(MerchantIdentity merchant, @RequestParam MultiValueMap<String, String> params) {
        return Mono.fromSupplier(() -> LinkQuery.parse(params))
                .flatMap(query -> service.list(merchant, query)
                        .map(listing -> new LinkListResponse(
                                listing.links().stream()
                                        .map(view -> LinkResponse.of(view, Audience.MERCHANT, json))
                                        .toList(),
                                listing.total(),
                                query.page().page(),
                                query.page().size(),
                                Pagination.of(query.page(), listing.total()).totalPages())));
    }

    /** The merchant's changes to a link, unlocking included (see {@link LinkUpdateService}). */
    @PutMapping(path = "/subscriptions/link/{id}", produces = MediaType.APPLICATION_JSON_VALUE)
    Mono<LinkResponse> update(
            MerchantIdentity merchant, @PathVariable String id, @RequestBody(required = false) String body) {
        return Mono.fromSupplier(() -> PathIds.uuid(id, "subscription link"))
                .flatMap(linkId -> updates.byMerchant(merchant, linkId, LinkUpdate.parse(json, body, clock.instant())))
                .map(view -> LinkResponse.of(view, Audience.MERCHANT, json));
    }

    @GetMapping("/subscriptions/link/{id}")
    Mono<LinkResponse> get(MerchantIdentity merchant, @PathVariable String id) {
        return Mono.fromSupplier(() -> PathIds.uuid(id, "subscription link"))
                .flatMap(linkId -> service.get(merchant, linkId))
                .map(view -> LinkResponse.of(view, Audience.MERCHANT, json));
    }
}
