package dev.cryptopay.service.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.cryptopay.service.error.ApiException;
import dev.cryptopay.service.json.ServiceJson;
import dev.cryptopay.service.request.Field;
import dev.cryptopay.service.request.JsonBody;
import dev.cryptopay.service.request.ListQuery;
import dev.cryptopay.service.request.Violations;
import dev.cryptopay.service.text.Storable;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.springframework.util.LinkedMultiValueMap;
import org.springframework.util.MultiValueMap;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Fuzz tests of the request readers every service uses: JSON bodies through each kind of declared field, and list
 * query strings through each query reader. Whatever the input, the outcome is a value or a 400 naming the problem —
 * never another exception — and a value that is accepted can be stored (no NUL, dates within the years 1–9999).
 *
 * <p>{@code ./mvnw verify} replays the committed corpus and then fuzzes each target for a bounded time (module README).
 */
class RequestParsingFuzzTest {

    private static final JsonMapper JSON = ServiceJson.mapper();

    private static final List<Field<?, ?>> FIELDS = List.of(
            Field.money("amount").required(),
            Field.money("fee").allowZero(),
            Field.integer("count").range(1, 1000),
            Field.unsigned("amount_base_units", 256),
            Field.unsignedDigits("value", 256).positive(),
            Field.string("name").required().length(1, 100),
            Field.email("email"),
            Field.url("url"),
            Field.uuid("id"),
            Field.bool("enabled"),
            Field.timestamp("at"),
            Field.object("metadata").maxBytes(4096));

    private static final List<String> QUERY_NAMES = List.of(
            "page",
            "limit",
            "page_size",
            "created_from",
            "created_to",
            "amount_min",
            "status",
            "sort_order",
            "search",
            "active",
            "name");

    @FuzzTest(maxDuration = "10s")
    void jsonBodiesAreReadOrRefused(byte[] input) {
        String body = new String(input, StandardCharsets.UTF_8);
        JsonNode object;
        try {
            object = JsonBody.object(JSON, body);
        } catch (ApiException refused) {
            assertThat(refused.status().value()).isEqualTo(400);
            return;
        }
        Violations violations = new Violations();
        for (Field<?, ?> field : FIELDS) {
            Object value = field.read(object, violations);
            assertStorable(value);
        }
        try {
            violations.throwIfAny();
        } catch (ApiException refused) {
            assertThat(refused.status().value()).isEqualTo(400);
            assertThat(refused.errors()).isNotEmpty();
        }
    }

    @FuzzTest(maxDuration = "10s")
    void listQueriesAreReadOrRefused(FuzzedDataProvider data) {
        MultiValueMap<String, String> params = new LinkedMultiValueMap<>();
        int count = data.consumeInt(0, 8);
        for (int i = 0; i < count; i++) {
            String name = data.consumeBoolean() ? data.pickValue(QUERY_NAMES) : data.consumeString(20);
            params.add(name, data.consumeString(100));
        }
        ListQuery query = new ListQuery(params);
        // Readers answer a value even when they record a problem; only what survives throwIfAny() is accepted.
        List<Object> values = new java.util.ArrayList<>();
        values.add(query.page("limit", 10, 100));
        values.add(query.page("page_size", 10, 100));
        values.add(query.dateRange("created_from", "created_to"));
        values.add(query.positiveDecimal("amount_min"));
        values.add(query.oneOf("status", List.of("active", "inactive"), null));
        values.add(query.sortOrder());
        values.add(query.search("search", 100));
        values.add(query.text("name", 1, 100));
        values.add(query.bool("active"));
        try {
            query.throwIfAny();
        } catch (ApiException refused) {
            assertThat(refused.status().value()).isEqualTo(400);
            return;
        }
        values.forEach(RequestParsingFuzzTest::assertStorable);
    }

    private static void assertStorable(Object value) {
        if (value instanceof String text) {
            assertThat(Storable.hasNul(text)).as("accepted text holds a NUL").isFalse();
        } else if (value instanceof java.time.Instant instant) {
            assertThat(Storable.inRange(instant))
                    .as("accepted instant out of range")
                    .isTrue();
        } else if (value instanceof ListQuery.DateRange range) {
            assertStorable(range.from());
            assertStorable(range.to());
        }
    }
}
