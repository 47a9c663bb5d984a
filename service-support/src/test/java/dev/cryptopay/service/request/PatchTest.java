package dev.cryptopay.service.request;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cryptopay.service.error.FieldError;
import dev.cryptopay.service.json.ServiceJson;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** PUT members read in three states: left out, sent as null, sent with a value. */
class PatchTest {

    private static final TextField OPTIONAL = Field.url("metadata_uri");
    private static final TextField REQUIRED = Field.string("name").required().length(1, 100);
    private static final TimestampField WHEN = Field.timestamp("expires_at");

    private final JsonMapper json = ServiceJson.mapper();

    private JsonNode body(String text) {
        return JsonBody.object(json, text);
    }

    @Test
    void aMemberLeftOutIsAbsentAndKeepsTheStoredValue() {
        Violations violations = new Violations();
        Patch<String> patch = OPTIONAL.patch(body("{}"), violations);
        assertThat(violations.isEmpty()).isTrue();
        assertThat(patch.given()).isFalse();
        assertThat(patch.clears()).isFalse();
        assertThat(patch.applyTo("ipfs://kept")).isEqualTo("ipfs://kept");
    }

    @Test
    void nullClearsAnOptionalMember() {
        Violations violations = new Violations();
        Patch<String> patch = OPTIONAL.patch(body("{\"metadata_uri\":null}"), violations);
        assertThat(violations.isEmpty()).isTrue();
        assertThat(patch.clears()).isTrue();
        assertThat(patch.applyTo("ipfs://old")).isNull();
    }

    @Test
    void aValueReplacesTheStoredOneAfterTheFieldsRules() {
        Violations violations = new Violations();
        Patch<Instant> patch = WHEN.patch(body("{\"expires_at\":\"2030-01-01T00:00:00Z\"}"), violations);
        assertThat(violations.isEmpty()).isTrue();
        assertThat(patch.hasValue()).isTrue();
        assertThat(patch.applyTo(Instant.EPOCH)).isEqualTo(Instant.parse("2030-01-01T00:00:00Z"));
    }

    @Test
    void nullIsRefusedForAMemberThatCannotBeEmpty() {
        Violations violations = new Violations();
        Patch<String> patch = REQUIRED.patch(body("{\"name\":null}"), violations);
        assertThat(violations.errors())
                .extracting(FieldError::field, FieldError::message)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(
                        "name", "name cannot be null; leave it out to keep its value"));
        assertThat(patch.given()).isFalse();
    }

    @Test
    void aBadValueIsRecordedAndChangesNothing() {
        Violations violations = new Violations();
        Patch<String> patch = OPTIONAL.patch(body("{\"metadata_uri\":\"not a url\"}"), violations);
        assertThat(violations.count()).isEqualTo(1);
        assertThat(patch.applyTo("ipfs://kept")).isEqualTo("ipfs://kept");
        Patch<String> blank = REQUIRED.patch(body("{\"name\":\"  \"}"), violations);
        assertThat(violations.count())
                .as("a required member may not be blanked either")
                .isEqualTo(2);
        assertThat(blank.given()).isFalse();
    }

    @Test
    void mapKeepsTheState() {
        assertThat(Patch.<String>absent().map(String::length).given()).isFalse();
        assertThat(Patch.<String>clear().map(String::length).clears()).isTrue();
        assertThat(Patch.of("four").map(String::length).value()).isEqualTo(4);
        assertThatThrownBy(() -> new Patch<>(false, "x")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aBodysKnownMembersAreItsFieldsNames() {
        assertThat(Field.names(OPTIONAL, REQUIRED, WHEN)).containsExactly("metadata_uri", "name", "expires_at");
        assertThat(Field.names("items", OPTIONAL, REQUIRED))
                .as("with a member read by hand")
                .containsExactly("metadata_uri", "name", "items");
    }
}
