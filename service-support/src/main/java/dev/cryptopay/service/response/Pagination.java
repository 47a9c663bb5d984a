package dev.cryptopay.service.response;

import dev.cryptopay.service.request.PageRequest;

/** The {@code pagination} object of list responses, derived from the page asked for and the total. */
public record Pagination(
        int currentPage, int perPage, long totalPages, long totalRecords, boolean hasNextPage, boolean hasPrevPage) {

    public static Pagination of(PageRequest page, long totalRecords) {
        long totalPages = (totalRecords + page.size() - 1) / page.size();
        return new Pagination(
                page.page(), page.size(), totalPages, totalRecords, page.page() < totalPages, page.page() > 1);
    }
}
