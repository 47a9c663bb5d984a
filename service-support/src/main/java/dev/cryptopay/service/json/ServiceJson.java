package dev.cryptopay.service.json;

import tools.jackson.core.StreamReadFeature;
import tools.jackson.core.StreamWriteFeature;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.MapperFeature;
import tools.jackson.databind.PropertyNamingStrategies;
import tools.jackson.databind.cfg.DateTimeFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * The JSON rules every service shares, applied to Spring's mapper by the auto-configuration and usable on its own
 * in plain tests:
 * <ul>
 *   <li>response records are written in snake_case, members in declaration order;
 *   <li>money is exact: JSON decimals are read as {@code BigDecimal} (0.1 stays 0.1) and written without exponent;
 *   <li>instants are ISO 8601 strings ({@code 2026-01-31T12:00:00.123456Z});
 *   <li>a body with a key twice, or with content after the value, is refused.
 * </ul>
 */
public final class ServiceJson {

    private ServiceJson() {}

    public static JsonMapper.Builder configure(JsonMapper.Builder builder) {
        return builder.propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
                .disable(MapperFeature.SORT_PROPERTIES_ALPHABETICALLY)
                .disable(DateTimeFeature.WRITE_DATES_AS_TIMESTAMPS)
                .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
                .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
                .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
                .enable(StreamWriteFeature.WRITE_BIGDECIMAL_AS_PLAIN);
    }

    /** A mapper with these rules, for code and tests outside a Spring context. */
    public static JsonMapper mapper() {
        return configure(JsonMapper.builder()).build();
    }
}
