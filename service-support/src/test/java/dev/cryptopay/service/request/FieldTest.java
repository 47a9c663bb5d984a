package dev.cryptopay.service.request;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cryptopay.service.error.ApiException;
import dev.cryptopay.service.error.FieldError;
import dev.cryptopay.service.json.ServiceJson;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** The declared field rules, on plain JSON trees: value read, or exactly one problem with its message and code. */
class FieldTest {

    private final JsonMapper json = ServiceJson.mapper();

    private JsonNode body(String text) {
        return JsonBody.object(json, text);
    }

    private <T> T read(Field<T, ?> field, String body, String... expectedMessages) {
        Violations violations = new Violations();
        T value = field.read(body(body), violations);
        assertThat(violations.errors()).extracting(FieldError::message).containsExactly(expectedMessages);
        return value;
    }

    @Test
    void aNumberNoDecimalCanHoldIsA400NotACrash() {
        // Found by RequestParsingFuzzTest: Jackson throws NumberFormatException, not a JacksonException, here.
        assertThatThrownBy(() -> body("{\"amount\":1e-100000000000001}"))
                .isInstanceOfSatisfying(ApiException.class, e -> {
                    assertThat(e.status().value()).isEqualTo(400);
                    assertThat(e.getMessage()).isEqualTo("A number in the JSON body is out of range");
                });
    }

    @Test
    void requiredStringsRefuseAbsentNullAndBlankValues() {
        TextField name = Field.string("payment_name").required().length(1, 100);
        assertThat(read(name, "{\"payment_name\":\"Coffee\"}")).isEqualTo("Coffee");
        read(name, "{}", "payment_name is required");
        read(name, "{\"payment_name\":null}", "payment_name is required");
        read(name, "{\"payment_name\":\"  \"}", "payment_name is required");
        read(name, "{\"payment_name\":5}", "payment_name must be a string");
        read(name, "{\"payment_name\":\"" + "x".repeat(101) + "\"}", "payment_name must be 1-100 characters");
        assertThat(read(Field.string("note").length(0, 3), "{}")).isNull();
        read(Field.string("note").length(0, 3), "{\"note\":\"abcd\"}", "note must be at most 3 characters");
    }

    @Test
    void lengthCountsCharactersNotUtf16Units() {
        assertThat(read(Field.string("n").length(1, 2), "{\"n\":\"\uD83D\uDE00\uD83D\uDE00\"}"))
                .hasSize(4);
    }

    @Test
    void enumeratedEmailAndUrlStrings() {
        read(
                Field.string("mode").oneOf(List.of("hosted", "embedded")),
                "{\"mode\":\"x\"}",
                "mode must be one of hosted, embedded");
        read(Field.email("e"), "{\"e\":\"not-an-address\"}", "e must be a valid e-mail address");
        assertThat(read(Field.email("e"), "{\"e\":\"a@b.co\"}")).isEqualTo("a@b.co");
        read(Field.url("u"), "{\"u\":\"ftp://x.test\"}", "u must be a valid http or https URL");
        read(Field.url("u").length(1, 10), "{\"u\":\"https://long.example\"}", "u must be 1-10 characters");
        assertThat(read(Field.url("u"), "{\"u\":\"https://shop.test/ok\"}")).isEqualTo("https://shop.test/ok");
    }

    @Test
    void moneyIsExactPositiveAndBounded() {
        DecimalField amount = Field.money("amount").required();
        assertThat(read(amount, "{\"amount\":10.50}"))
                .isEqualByComparingTo("10.5")
                .hasToString("10.5");
        assertThat(read(amount, "{\"amount\":1e3}")).hasToString("1000");
        read(amount, "{\"amount\":\"10\"}", "amount must be a number");
        read(amount, "{\"amount\":0}", "amount must be greater than 0");
        read(amount, "{\"amount\":-1}", "amount must be greater than 0");
        read(Field.money("tax").allowZero(), "{\"tax\":-1}", "tax must not be negative");
        assertThat(read(Field.money("tax").allowZero(), "{\"tax\":0}")).isEqualByComparingTo(BigDecimal.ZERO);
        read(amount, "{\"amount\":0.0000000000000000001}", "amount must have at most 18 decimal places");
        read(amount, "{\"amount\":123456789012345678901}", "amount is too large");
    }

    @Test
    @Timeout(5)
    void hugeExponentsAreRefusedWithoutMaterialisingTheNumber() {
        Duration started = Duration.ofNanos(System.nanoTime());
        read(Field.money("amount"), "{\"amount\":1e100000001}", "amount is too large");
        read(Field.money("amount"), "{\"amount\":-1e100000001}", "amount must be greater than 0");
        read(Field.integer("n"), "{\"n\":1e100000001}", "n must be between 0 and 2147483647");
        assertThat(Duration.ofNanos(System.nanoTime()).minus(started)).isLessThan(Duration.ofSeconds(5));
    }

    @Test
    void integersAreWholeAndInRange() {
        WholeField uses = Field.integer("max_uses").range(1, Integer.MAX_VALUE);
        assertThat(read(uses, "{\"max_uses\":2.0}")).isEqualTo(2);
        read(uses, "{\"max_uses\":2.5}", "max_uses must be an integer");
        read(uses, "{\"max_uses\":0}", "max_uses must be greater than 0");
        read(Field.integer("q").range(1, 10), "{\"q\":11}", "q must be between 1 and 10");
    }

    @Test
    void booleansTimestampsAndObjects() {
        assertThat(read(Field.bool("b"), "{\"b\":false}")).isFalse();
        read(Field.bool("b"), "{\"b\":\"true\"}", "b must be true or false");
        assertThat(read(Field.timestamp("t"), "{\"t\":\"2026-01-31T12:00:00+01:00\"}"))
                .isEqualTo(Instant.parse("2026-01-31T11:00:00Z"));
        read(
                Field.timestamp("t"),
                "{\"t\":\"2026-01-31\"}",
                "t must be an ISO 8601 timestamp with a time zone, e.g. 2026-01-31T12:00:00Z");
        read(Field.object("o"), "{\"o\":[1]}", "o must be an object");
        assertThat(read(Field.object("o"), "{\"o\":{\"a\":1}}").get("a").intValue())
                .isEqualTo(1);
    }

    @Test
    void nestedPathsNameTheProblem() {
        Violations violations = new Violations();
        Field.string("name").required().read(body("{}"), "cart.items[0].name", violations);
        assertThat(violations.errors())
                .containsExactly(new FieldError("cart.items[0].name", "cart.items[0].name is required"));
    }

    @Test
    void theFirstProblemsCodeBecomesTheResponseCode() {
        Violations violations = new Violations();
        Field.string("currency").required().code("currency_required").read(body("{}"), violations);
        Field.string("payment_name").required().read(body("{}"), violations);
        violations.rejectUnknown(body("{\"colour\":1}"), "", List.of("currency"));
        assertThatThrownBy(violations::throwIfAny).isInstanceOfSatisfying(ApiException.class, e -> {
            assertThat(e.code()).isEqualTo("currency_required");
            assertThat(e.getMessage()).isEqualTo("currency is required");
            assertThat(e.errors())
                    .extracting(FieldError::message)
                    .containsExactly("currency is required", "payment_name is required", "Unknown field: colour");
        });
    }

    @Test
    void bodiesMustBeOneJsonObject() {
        for (String bad : new String[] {"", "  ", "[1]", "{\"a\":", "{\"a\":1,\"a\":2}", "{} {}"}) {
            assertThatThrownBy(() -> JsonBody.object(json, bad))
                    .isInstanceOfSatisfying(
                            ApiException.class,
                            e -> assertThat(e.status().value()).isEqualTo(400));
        }
    }

    @Test
    void unsignedIntegersAreExactAndBoundedByTheirBits() {
        UnsignedField nonce = Field.unsigned("nonce", 32);
        assertThat(read(nonce, "{\"nonce\":4294967295}")).isEqualTo(new java.math.BigInteger("4294967295"));
        assertThat(read(nonce, "{\"nonce\":0}")).isZero();
        read(nonce, "{\"nonce\":4294967296}", "nonce must be at most 4294967295 (uint32)");
        read(nonce, "{\"nonce\":-1}", "nonce must not be negative");
        read(nonce, "{\"nonce\":1.5}", "nonce must be an integer");
        read(nonce, "{\"nonce\":\"1\"}", "nonce must be an integer");
        read(nonce, "{\"nonce\":1e100000000}", "nonce must be at most 4294967295 (uint32)");

        UnsignedField amount = Field.unsignedDigits("amount", 256).positive();
        String max = java.math.BigInteger.ONE
                .shiftLeft(256)
                .subtract(java.math.BigInteger.ONE)
                .toString();
        assertThat(read(amount, "{\"amount\":\"" + max + "\"}")).hasToString(max);
        read(amount, "{\"amount\":\"0\"}", "amount must be greater than 0");
        read(amount, "{\"amount\":10}", "amount must be a string of decimal digits");
        read(amount, "{\"amount\":\"1e6\"}", "amount must be a string of decimal digits");
        read(amount, "{\"amount\":\"-5\"}", "amount must be a string of decimal digits");
        read(amount, "{\"amount\":\"" + max + "0\"}", "amount must be at most " + max + " (uint256)");
    }

    @Test
    void ruleChecksAndObjectSizes() {
        TextField even = Field.string("n").satisfying(text -> text.length() % 2 == 0, "must have an even length");
        assertThat(read(even, "{\"n\":\"ab\"}")).isEqualTo("ab");
        read(even, "{\"n\":\"abc\"}", "n must have an even length");
        ObjectField metadata = Field.object("m").maxBytes(1024);
        assertThat(read(metadata, "{\"m\":{\"a\":1}}").get("a").asInt()).isEqualTo(1);
        read(metadata, "{\"m\":{\"a\":\"" + "x".repeat(1100) + "\"}}", "m must be at most 1 KB of JSON");
    }

    @Test
    void rulesCannotBeAddedOnceAFieldWasRead() {
        TextField name = Field.string("name").length(1, 10);
        read(name, "{}");
        org.assertj.core.api.Assertions.assertThatIllegalStateException()
                .isThrownBy(name::required)
                .withMessageContaining("declare its rules once");
    }

    @Test
    void storedValuesStayWithinWhatPostgresqlHolds() {
        read(Field.string("n"), "{\"n\":\"a\\u0000b\"}", "n must not contain NUL characters");
        read(Field.timestamp("t"), "{\"t\":\"+100000-01-01T00:00:00Z\"}", "t must lie between the years 1 and 9999");
        assertThat(read(Field.timestamp("t"), "{\"t\":\"9999-12-31T00:00:00Z\"}"))
                .isNotNull();
        ObjectField free = Field.object("m");
        read(
                free,
                "{\"m\":{\"a\":{\"b\":[1,1e101]}}}",
                "m must not hold numbers of more than 100 digits before or after the point");
        read(
                free,
                "{\"m\":{\"a\":1e-101}}",
                "m must not hold numbers of more than 100 digits before or after the point");
        read(free, "{\"m\":{\"a\\u0000\":1}}", "m must not contain NUL characters");
        assertThat(read(free, "{\"m\":{\"a\":[1.5,\"x\",{\"b\":null}]}}")).isNotNull();
    }
}
