package dev.cryptopay.service.request;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cryptopay.service.error.ApiException;
import dev.cryptopay.service.error.FieldError;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.util.LinkedMultiValueMap;
import org.springframework.util.MultiValueMap;

class ListQueryTest {

    private static ListQuery query(String... pairs) {
        MultiValueMap<String, String> params = new LinkedMultiValueMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            params.add(pairs[i], pairs[i + 1]);
        }
        return new ListQuery(params);
    }

    private static List<String> problems(ListQuery query) {
        return query.violations().errors().stream().map(FieldError::message).toList();
    }

    @Test
    void pagesDefaultAndAreBounded() {
        ListQuery defaults = query();
        assertThat(defaults.page("limit", 20, 100)).isEqualTo(new PageRequest(1, 20));
        ListQuery given = query("page", " 3 ", "page_size", "10");
        assertThat(given.page("page_size", 10, 50)).isEqualTo(new PageRequest(3, 10));
        assertThat(given.page("page_size", 10, 50).offset()).isEqualTo(20);
        ListQuery bad = query("page", "0", "limit", "x");
        assertThat(bad.page("limit", 20, 100)).isEqualTo(new PageRequest(1, 20));
        assertThat(problems(bad)).containsExactly("page must be at least 1", "limit must be an integer");
        ListQuery tooBig = query("limit", "101");
        tooBig.page("limit", 20, 100);
        assertThat(problems(tooBig)).containsExactly("limit must be between 1 and 100");
    }

    @Test
    void theLastDateThereIsIsOutOfRangeNotACrash() {
        ListQuery q = query("created_to", "+999999999-12-31", "created_from", "-999999999-01-01");
        assertThat(q.to("created_to")).isNull();
        assertThat(q.from("created_from")).isNull();
        assertThat(problems(q))
                .containsExactly(
                        "created_to must lie between the years 1 and 9999",
                        "created_from must lie between the years 1 and 9999");
    }

    @Test
    void uuidsAreCanonicalOrAProblem() {
        ListQuery q = query("plan_id", "3f2b8c2e-7d1a-4c55-9a43-2b1d6f0e9a10", "network_id", "nope");
        assertThat(q.uuid("plan_id")).hasToString("3f2b8c2e-7d1a-4c55-9a43-2b1d6f0e9a10");
        assertThat(q.uuid("absent")).isNull();
        assertThat(q.uuid("network_id")).isNull();
        assertThat(q.uuid("subscriber_id", "3f2b8c2e7d1a4c559a432b1d6f0e9a10"))
                .as("not canonical")
                .isNull();
        assertThat(problems(q)).containsExactly("network_id must be a UUID", "subscriber_id must be a UUID");
    }

    @Test
    void filtersAndSort() {
        ListQuery q = query(
                "is_active",
                "yes",
                "sort_by",
                "colour",
                "sort_order",
                "ASC",
                "search",
                "  tea  ",
                "min_amount",
                "-1",
                "status",
                "done");
        assertThat(q.bool("is_active")).isNull();
        assertThat(q.oneOf("sort_by", List.of("created_at", "name"), "created_at"))
                .isEqualTo("colour");
        assertThat(q.sortOrder()).isEqualTo("asc");
        assertThat(q.search("search", 100)).isEqualTo("tea");
        assertThat(q.positiveDecimal("min_amount")).isNull();
        assertThat(q.oneOf("status", List.of("pending", "failed"), null)).isEqualTo("done");
        assertThat(problems(q))
                .containsExactly(
                        "is_active must be true or false",
                        "sort_by must be one of created_at, name",
                        "min_amount must be greater than 0",
                        "status must be one of pending, failed");
        assertThat(query("search", "   ").search("search", 100)).isNull();
    }

    @Test
    void datesMeanWholeDaysInUtc() {
        ListQuery q = query("from", "2026-01-31", "to", "2026-01-31", "at", "2026-01-31T10:00:00+02:00");
        assertThat(q.from("from")).isEqualTo(Instant.parse("2026-01-31T00:00:00Z"));
        assertThat(q.to("to")).isEqualTo(Instant.parse("2026-01-31T23:59:59.999999Z"));
        assertThat(q.from("at")).isEqualTo(Instant.parse("2026-01-31T08:00:00Z"));
        ListQuery bad = query("from", "yesterday");
        assertThat(bad.from("from")).isNull();
        assertThatThrownBy(bad::throwIfAny)
                .isInstanceOfSatisfying(
                        ApiException.class,
                        e -> assertThat(e.getMessage()).isEqualTo("from must be an ISO 8601 timestamp or date"));
    }

    @Test
    void valuesOutsideWhatTheDatabaseHoldsAreProblems() {
        ListQuery nul = query("search", "a\u0000b");
        assertThat(problems(nul)).containsExactly("Query parameters must not contain NUL characters");

        ListQuery huge = query("min_amount", "1e100000000");
        assertThat(huge.positiveDecimal("min_amount")).isNull();
        assertThat(problems(huge))
                .containsExactly("min_amount must have at most 20 digits before and 18 after the point");

        ListQuery far = query("from", "+100000-01-01T00:00:00Z", "to", "-0005-01-01");
        assertThat(far.from("from")).isNull();
        assertThat(far.to("to")).isNull();
        assertThat(problems(far))
                .containsExactly(
                        "from must lie between the years 1 and 9999", "to must lie between the years 1 and 9999");

        ListQuery range = query("start_date", "2026-02-01", "end_date", "2026-01-01");
        range.dateRange("start_date", "end_date");
        assertThat(problems(range)).containsExactly("start_date must not be after end_date");
    }
}
