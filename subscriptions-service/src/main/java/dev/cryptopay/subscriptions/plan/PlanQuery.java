package dev.cryptopay.subscriptions.plan;

import dev.cryptopay.service.request.ListQuery;
import dev.cryptopay.service.request.PageRequest;
import java.time.Instant;
import org.springframework.util.MultiValueMap;

/** The query of {@code GET /subscriptions/plans/}: paging, name search, deprecated flag, creation date range. */
public record PlanQuery(PageRequest page, String search, Boolean deprecated, Instant from, Instant to) {

    static final int DEFAULT_PAGE_SIZE = 10;
    static final int MAX_PAGE_SIZE = 100;

    public static PlanQuery parse(MultiValueMap<String, String> params) {
        ListQuery query = new ListQuery(params);
        PageRequest page = query.page("page_size", DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE);
        String search = query.search("search", 100);
        Boolean deprecated = query.bool("deprecated");
        ListQuery.DateRange created = query.dateRange("start_date", "end_date");
        query.throwIfAny();
        return new PlanQuery(page, search, deprecated, created.from(), created.to());
    }
}
