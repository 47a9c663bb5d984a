package dev.cryptopay.service.response;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cryptopay.service.error.ApiException;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class ResponseShapesTest {

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
        assertThat(Pagination.of(3, 3, 7))
                .containsExactly(
                        java.util.Map.entry("current_page", 3), java.util.Map.entry("per_page", 3),
                        java.util.Map.entry("total_pages", 3L), java.util.Map.entry("total_records", 7L),
                        java.util.Map.entry("has_next_page", false), java.util.Map.entry("has_prev_page", true));
        assertThat(Pagination.of(1, 20, 0)).containsEntry("total_pages", 0L).containsEntry("has_next_page", false);
        assertThat(Envelope.of("ok", 1))
                .containsExactly(java.util.Map.entry("message", "ok"), java.util.Map.entry("data", 1));
    }
}
