package dev.cryptopay.subscriptions.subscription;

import dev.cryptopay.service.request.ListQuery;
import dev.cryptopay.service.request.PageRequest;
import java.time.Instant;
import java.util.UUID;
import org.springframework.util.MultiValueMap;

/**
 * The query of the subscriber lists: page (default 1), page_size (default 10, at most 100), plan_id, a search over
 * the customer's name and e-mail, and a creation date range.
 */
public record SubscriberQuery(PageRequest page, UUID planId, String search, Instant from, Instant to) {

    static final int DEFAULT_PAGE_SIZE = 10;
    static final int MAX_PAGE_SIZE = 100;

    public static SubscriberQuery parse(MultiValueMap<String, String> params) {
        ListQuery query = new ListQuery(params);
        PageRequest page = query.page("page_size", DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE);
        UUID planId = query.uuid("plan_id");
        String search = query.search("search", 100);
        ListQuery.DateRange created = query.dateRange("start_date", "end_date");
        query.throwIfAny();
        return new SubscriberQuery(page, planId, search, created.from(), created.to());
    }

    public SubscriberQuery forPlan(UUID plan) {
        return new SubscriberQuery(page, plan, search, from, to);
    }
}
