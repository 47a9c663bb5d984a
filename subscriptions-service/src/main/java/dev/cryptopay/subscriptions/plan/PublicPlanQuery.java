package dev.cryptopay.subscriptions.plan;

import dev.cryptopay.service.request.ListQuery;
import dev.cryptopay.service.request.PageRequest;
import java.util.UUID;
import org.springframework.util.MultiValueMap;

/**
 * The query of {@code GET /public/subscriptions/plans/}: paging, and optionally the merchant's address and the
 * network. Addresses are matched in any letter case.
 */
public record PublicPlanQuery(PageRequest page, String merchant, UUID networkId) {

    public static PublicPlanQuery parse(MultiValueMap<String, String> params) {
        ListQuery query = new ListQuery(params);
        PageRequest page = query.page("page_size", PlanQuery.DEFAULT_PAGE_SIZE, PlanQuery.MAX_PAGE_SIZE);
        String merchant = params.getFirst("merchant");
        if (merchant != null && !Addresses.isValid(merchant.toLowerCase(java.util.Locale.ROOT))) {
            query.violations().reject("merchant", "merchant " + PlanRequest.ADDRESS_RULE);
            merchant = null;
        }
        UUID networkId = query.uuid("network_id");
        query.throwIfAny();
        return new PublicPlanQuery(page, merchant == null ? null : Addresses.checksummed(merchant), networkId);
    }
}
