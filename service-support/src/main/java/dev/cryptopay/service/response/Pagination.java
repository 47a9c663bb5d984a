package dev.cryptopay.service.response;

import java.util.LinkedHashMap;
import java.util.Map;

/** The {@code pagination} object of list responses, derived from the page asked for and the total. */
public final class Pagination {

    private Pagination() {}

    public static Map<String, Object> of(int page, int perPage, long totalRecords) {
        long totalPages = (totalRecords + perPage - 1) / perPage;
        Map<String, Object> pagination = new LinkedHashMap<>();
        pagination.put("current_page", page);
        pagination.put("per_page", perPage);
        pagination.put("total_pages", totalPages);
        pagination.put("total_records", totalRecords);
        pagination.put("has_next_page", page < totalPages);
        pagination.put("has_prev_page", page > 1);
        return pagination;
    }
}
