package dev.cryptopay.service.response;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.cryptopay.service.request.PageRequest;
import java.util.List;

/**
 * One page of a list: {@code {data: [...], pagination: {...}}}, and {@code filters} when a list echoes how it was
 * sorted or filtered (a record of the list's own).
 *
 * @param filters omitted when null
 */
public record Page<T>(
        List<T> data,
        Pagination pagination,
        @JsonInclude(JsonInclude.Include.NON_NULL) Object filters) {

    public static <T> Page<T> of(List<T> items, PageRequest page, long totalRecords) {
        return new Page<>(items, Pagination.of(page, totalRecords), null);
    }

    public Page<T> withFilters(Object filters) {
        return new Page<>(data, pagination, filters);
    }
}
