package dev.cryptopay.gateway.production;

import dev.cryptopay.gateway.keys.ResolvedKey;
import dev.cryptopay.gateway.routing.AnsweringFilter;
import dev.cryptopay.service.request.Field;
import dev.cryptopay.service.request.TextField;
import dev.cryptopay.service.request.Violations;
import java.time.Instant;
import java.util.UUID;
import org.springframework.http.HttpMethod;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code GET} and {@code POST /api/v1/account/production_access}, answered by the gateway: the calling merchant's
 * request for production access (live keys) and its status; {@code status} is {@code none} before the first request.
 * POST answers 201 with a new pending request, or 200 with the merchant's open (or approved) request.
 */
public class ProductionAccessFilter extends AnsweringFilter {

    private static final TextField COMPANY = Field.string("company").length(1, 200);
    private static final TextField WEBSITE = Field.url("website").length(1, 500);
    private static final TextField USE_CASE =
            Field.string("use_case").required().length(1, 2000);

    private final ProductionAccess access;

    public ProductionAccessFilter(ProductionAccess access, JsonMapper json) {
        super(json);
        this.access = access;
    }

    /**
     * A merchant's view of its request; every member but {@code status} is null when it never asked.
     *
     * @param status {@code none}, {@code pending}, {@code approved} or {@code rejected}
     * @param reason the operator's reason for a rejection
     */
    record AccessBody(
            UUID id,
            String status,
            String company,
            String website,
            String useCase,
            String reason,
            Instant createdAt,
            Instant decidedAt) {

        static final AccessBody NONE = new AccessBody(null, "none", null, null, null, null, null, null);

        static AccessBody of(AccessRequest request) {
            return new AccessBody(
                    request.id(),
                    request.status().wireName(),
                    request.company(),
                    request.website(),
                    request.useCase(),
                    request.reason(),
                    request.createdAt(),
                    request.decidedAt());
        }
    }

    @Override
    protected Mono<Answer> answer(ServerWebExchange exchange, ResolvedKey caller, byte[] body) {
        UUID merchantId = required(caller).identity().merchantId();
        if (HttpMethod.GET.equals(exchange.getRequest().getMethod())) {
            return access.latest(merchantId)
                    .map(latest -> Answer.ok(latest.map(AccessBody::of).orElse(AccessBody.NONE)));
        }
        JsonNode request = jsonObject(body);
        Violations violations = new Violations();
        violations.rejectUnknown(request, "", Field.names(COMPANY, WEBSITE, USE_CASE));
        String company = COMPANY.read(request, violations);
        String website = WEBSITE.read(request, violations);
        String useCase = USE_CASE.read(request, violations);
        violations.throwIfAny();
        return access.ask(merchantId, strip(company), website, useCase.strip())
                .map(asked -> asked.created()
                        ? Answer.created(AccessBody.of(asked.request()))
                        : Answer.ok(AccessBody.of(asked.request())));
    }

    private static String strip(String text) {
        return text == null || text.isBlank() ? null : text.strip();
    }
}
