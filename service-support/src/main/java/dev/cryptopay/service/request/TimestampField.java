package dev.cryptopay.service.request;

import dev.cryptopay.service.text.Storable;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import tools.jackson.databind.JsonNode;

/** An ISO 8601 timestamp with a zone or offset, as a string of at most 64 characters. */
public final class TimestampField extends Field<Instant, TimestampField> {

    private final TextField text;

    TimestampField(String name) {
        super(name);
        this.text = new TextField(name).length(1, 64);
    }

    @Override
    Instant convert(JsonNode value, String path, Violations violations) {
        int before = violations.count();
        String string = text.convert(value, path, violations);
        if (violations.count() > before) {
            return null;
        }
        try {
            Instant instant = OffsetDateTime.parse(string).toInstant();
            return Storable.inRange(instant)
                    ? instant
                    : reject(violations, path, path + " must lie between the years 1 and 9999");
        } catch (DateTimeParseException e) {
            return reject(
                    violations,
                    path,
                    path + " must be an ISO 8601 timestamp with a time zone, e.g. 2026-01-31T12:00:00Z");
        }
    }
}
