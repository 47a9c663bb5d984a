package dev.cryptopay.subscriptions.plan;

import dev.cryptopay.service.response.Pagination;
import dev.cryptopay.service.response.PathIds;
import java.util.List;
import org.springframework.util.MultiValueMap;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import reactor.core.publisher.Mono;

/** Plans as a customer's wallet or checkout reads them (public routes: no merchant identity). */
@RestController
class PublicPlanController {

    private final PlanService service;

    PublicPlanController(PlanService service) {
        this.service = service;
    }

    record PublicPlanListResponse(
            List<PublicPlanResponse> plans, long total, int page, int pageSize, long totalPages) {}

    @GetMapping({"/public/subscriptions/plans", "/public/subscriptions/plans/"})
    Mono<PublicPlanListResponse> list(@RequestParam MultiValueMap<String, String> params) {
        return Mono.fromSupplier(() -> PublicPlanQuery.parse(params))
                .flatMap(query -> service.publicList(query)
                        .map(listing -> new PublicPlanListResponse(
                                listing.plans().stream()
                                        .map(PublicPlanResponse::of)
                                        .toList(),
                                listing.total(),
                                query.page().page(),
                                query.page().size(),
                                Pagination.of(query.page(), listing.total()).totalPages())));
    }

    @GetMapping("/public/subscriptions/plans/{id}")
    Mono<PublicPlanResponse> get(@PathVariable String id) {
        return Mono.fromSupplier(() -> PathIds.uuid(id, "subscription plan"))
                .flatMap(service::publicGet)
                .map(PublicPlanResponse::of);
    }
}
