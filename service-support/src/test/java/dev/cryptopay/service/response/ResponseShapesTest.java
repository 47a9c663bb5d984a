package dev.cryptopay.service.response;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.cryptopay.service.error.ApiException;
import dev.cryptopay.service.json.ServiceJson;
import dev.cryptopay.service.request.PageRequest;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

class ResponseShapesTest {

    private final JsonMapper json = ServiceJson.mapper();

    @Test
    void pathIdsAcceptOnlyCanonicalUuids() {
        UUID id = UUID.randomUUID();
        assertThat(PathIds.uuid(id.toString(), "payment link")).isEqualTo(id);
        assertThat(PathIds.uuid(id.toString().toUpperCase(), "payment link")).isEqualTo(id);
        for (String bad : new String[] {"123", "1-2-3-4-5", "not-a-uuid", ""}) {
            assertThatThrownBy(() -> PathIds.uuid(bad, "delivery")).isInstanceOfSatisfying(ApiException.class, e -> {
                assertThat(e.status().value()).isEqualTo(400);
                assertThat(e.code()).isEqualTo("invalid_id");
                assertThat(e.getMessage()).isEqualTo("Invalid delivery id: must be a UUID");
            });
        }
    }

    @Test
    void paginationDerivesPagesFromTheTotal() {
        assertThat(json.writeValueAsString(Pagination.of(new PageRequest(3, 3), 7)))
                .isEqualTo("{\"current_page\":3,\"per_page\":3,\"total_pages\":3,\"total_records\":7,"
                        + "\"has_next_page\":false,\"has_prev_page\":true}");
        Pagination empty = Pagination.of(new PageRequest(1, 20), 0);
        assertThat(empty.totalPages()).isZero();
        assertThat(empty.hasNextPage()).isFalse();
        assertThat(Pagination.of(new PageRequest(1, 20), 21).hasNextPage()).isTrue();
    }

    @Test
    void envelopeAndPageRenderInDeclarationOrderWithFiltersOnlyWhenGiven() {
        Page<Integer> page = Page.of(List.of(1, 2), new PageRequest(1, 2), 2);
        assertThat(json.writeValueAsString(Envelope.of("ok", page)))
                .isEqualTo("{\"message\":\"ok\",\"data\":{\"data\":[1,2],\"pagination\":{\"current_page\":1,"
                        + "\"per_page\":2,\"total_pages\":1,\"total_records\":2,\"has_next_page\":false,"
                        + "\"has_prev_page\":false}}}");
        assertThat(json.writeValueAsString(page.withFilters(new Sort("name", "asc"))))
                .endsWith(",\"filters\":{\"sort_by\":\"name\",\"sort_order\":\"asc\"}}");
    }

    record Sort(String sortBy, String sortOrder) {}

    @JsonInclude(JsonInclude.Include.NON_ABSENT)
    record Shape(String zebraName, BigDecimal amount, Instant createdAt, String optionalNote) {}

    @Test
    void recordsAreSnakeCaseExactAndIsoTimedWithOptionalMembersOmitted() {
        Shape shape = new Shape("z", new BigDecimal("0.00000001"), Instant.parse("2026-01-31T12:00:00.123456Z"), null);
        assertThat(json.writeValueAsString(shape))
                .isEqualTo("{\"zebra_name\":\"z\",\"amount\":0.00000001,"
                        + "\"created_at\":\"2026-01-31T12:00:00.123456Z\"}");
    }
}
