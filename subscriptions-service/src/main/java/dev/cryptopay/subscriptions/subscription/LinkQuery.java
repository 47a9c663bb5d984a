package dev.cryptopay.subscriptions.subscription;

import dev.cryptopay.service.request.ListQuery;
import dev.cryptopay.service.request.PageRequest;
import java.time.Instant;
import java.util.UUID;
import org.springframework.util.MultiValueMap;

/**
 * The query of {@code GET /subscriptions/link/}: paging, a search over the customer's name, e-mail and id and the
 * wallet address, is_active, plan_id and a creation date range.
 */
public record LinkQuery(PageRequest page, String search, Boolean active, UUID planId, Instant from, Instant to) {

    static final int DEFAULT_PAGE_SIZE = 10;
    static final int MAX_PAGE_SIZE = 100;

    public static LinkQuery parse(MultiValueMap<String, String> params) {
        ListQuery query = new ListQuery(params);
        PageRequest page = query.page("page_size", DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE);
        String search = query.search("search", 100);
        Boolean active = query.bool("is_active");
        UUID planId = query.uuid("plan_id");
        ListQuery.DateRange created = query.dateRange("start_date", "end_date");
        query.throwIfAny();
        return new LinkQuery(page, search, active, planId, created.from(), created.to());
    }
}
