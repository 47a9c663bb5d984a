package dev.cryptopay.paymentlinks.paymentlink;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cryptopay.auth.Mode;
import dev.cryptopay.auth.internal.MerchantIdentity;
import dev.cryptopay.paymentlinks.PaymentLinksTestBase;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;
import reactor.core.publisher.Flux;
import tools.jackson.databind.JsonNode;

class CreatePaymentLinkTest extends PaymentLinksTestBase {

    private static final String MINIMAL = "{\"payment_name\":\"Coffee\",\"amount\":10.5,\"currency\":\"USDC\"}";

    @Test
    void minimalCreateAnswersTheDocumentedShapeWithGeneratedIdsAndDefaults() {
        MerchantIdentity merchant = newMerchant();
        Instant now = clock.instant();

        JsonNode response = read(create(merchant, MINIMAL)
                .expectStatus()
                .isCreated()
                .expectHeader()
                .contentType(MediaType.APPLICATION_JSON));
        assertThat(response.get("message").asString()).isEqualTo("Payment link created successfully");
        JsonNode link = response.get("data");

        String today = LocalDate.ofInstant(now, ZoneOffset.UTC).format(DateTimeFormatter.BASIC_ISO_DATE);
        assertThat(link.get("id").asString()).matches("[0-9a-f-]{36}");
        assertThat(link.get("payment_name").asString()).isEqualTo("Coffee");
        assertThat(link.get("amount").isNumber()).isTrue();
        assertThat(link.get("amount").decimalValue()).isEqualByComparingTo("10.5");
        assertThat(link.get("currency").asString()).isEqualTo("USDC");
        assertThat(link.get("payment_url").asString())
                .isEqualTo("https://pay.test/payment_link?payment_id="
                        + link.get("id").asString());
        assertThat(link.get("payment_status").asString()).isEqualTo("pending");
        assertThat(link.get("payment_type").asString()).isEqualTo("one_time");
        assertThat(link.get("source").asString()).isEqualTo("payment_link_api");
        assertThat(link.get("is_test").asBoolean()).isTrue();
        assertThat(Instant.parse(link.get("expires_at").asString()))
                .isEqualTo(now.plus(Duration.ofHours(24)).truncatedTo(ChronoUnit.MICROS));
        assertThat(link.get("max_uses").asInt()).isEqualTo(1);
        assertThat(link.get("current_uses").asInt()).isZero();
        assertThat(link.get("is_active").asBoolean()).isTrue();
        assertThat(link.get("is_expired").asBoolean()).isFalse();
        assertThat(link.get("customer_id").asString()).matches("CUST-" + today + "-[0-9a-f]{12}");
        assertThat(link.get("order_id").asString()).matches("ORD-" + today + "-[0-9a-f]{12}");
        assertThat(link.get("auto_fill").asBoolean()).isTrue();
        assertThat(Instant.parse(link.get("created_at").asString())).isEqualTo(now.truncatedTo(ChronoUnit.MICROS));
        assertThat(fieldNames(link))
                .doesNotContain(
                        "description",
                        "customer_name",
                        "customer_email",
                        "product_name",
                        "product_description",
                        "cart",
                        "success_url",
                        "cancel_url",
                        "webhook_metadata",
                        "checkout_mode",
                        "origin",
                        "summary");
    }

    @Test
    void fullCreateEchoesEveryOptionalField() {
        MerchantIdentity merchant = newMerchant();
        String expiresAt = clock.instant()
                .plus(Duration.ofDays(3))
                .truncatedTo(ChronoUnit.SECONDS)
                .toString();
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("payment_name", "Premium plan");
        body.put("amount", new java.math.BigDecimal("0.3"));
        body.put("currency", "ETH");
        body.put("description", "Café ☕ order");
        body.put("expires_at", expiresAt);
        body.put("max_uses", 5);
        body.put("customer_id", "cust_42");
        body.put("customer_name", "Ada Lovelace");
        body.put("customer_email", "ada@example.com");
        body.put("product_name", "Premium");
        body.put("product_description", "A year of premium");
        body.put(
                "cart",
                Map.of(
                        "items",
                        List.of(
                                Map.of("name", "A", "product_id", "p1", "quantity", 1, "unit_price", 0.1, "total", 0.1),
                                Map.of("name", "B", "quantity", 2, "unit_price", 0.05, "total", 0.1)),
                        "subtotal",
                        0.2,
                        "tax",
                        0.1,
                        "total",
                        0.3));
        body.put("order_id", "order-7");
        body.put("auto_fill", false);
        body.put("success_url", "https://shop.example/ok");
        body.put("cancel_url", "https://shop.example/cancel");
        body.put("webhook_metadata", Map.of("internal_ref", "abc", "nested", Map.of("n", 1)));
        body.put("checkout_mode", "hosted");
        body.put("origin", "https://shop.example");

        JsonNode link = createOk(merchant, body);

        assertThat(link.get("description").asString()).isEqualTo("Café ☕ order");
        assertThat(link.get("amount").decimalValue()).isEqualByComparingTo("0.3");
        assertThat(link.get("amount").decimalValue()).isEqualTo(new java.math.BigDecimal("0.3"));
        assertThat(link.get("expires_at").asString()).isEqualTo(expiresAt);
        assertThat(link.get("max_uses").asInt()).isEqualTo(5);
        assertThat(link.get("payment_type").asString()).isEqualTo("recurring");
        assertThat(link.get("customer_id").asString()).isEqualTo("cust_42");
        assertThat(link.get("customer_name").asString()).isEqualTo("Ada Lovelace");
        assertThat(link.get("customer_email").asString()).isEqualTo("ada@example.com");
        assertThat(link.get("product_name").asString()).isEqualTo("Premium");
        assertThat(link.get("product_description").asString()).isEqualTo("A year of premium");
        assertThat(link.get("order_id").asString()).isEqualTo("order-7");
        assertThat(link.get("auto_fill").asBoolean()).isFalse();
        assertThat(link.get("success_url").asString()).isEqualTo("https://shop.example/ok");
        assertThat(link.get("cancel_url").asString()).isEqualTo("https://shop.example/cancel");
        assertThat(link.get("webhook_metadata").get("internal_ref").asString()).isEqualTo("abc");
        assertThat(link.get("webhook_metadata").get("nested").get("n").asInt()).isEqualTo(1);
        assertThat(link.get("checkout_mode").asString()).isEqualTo("hosted");
        assertThat(link.get("origin").asString()).isEqualTo("https://shop.example");
        JsonNode cart = link.get("cart");
        assertThat(cart.get("items")).hasSize(2);
        assertThat(cart.get("items").get(0).get("product_id").asString()).isEqualTo("p1");
        assertThat(cart.get("shipping").decimalValue()).isEqualByComparingTo("0");
        assertThat(cart.get("total").decimalValue()).isEqualTo(new java.math.BigDecimal("0.3"));
    }

    @Test
    void liveModeLinksAreNotTestLinks() {
        JsonNode link = createOk(new MerchantIdentity(java.util.UUID.randomUUID(), Mode.LIVE), MINIMAL);
        assertThat(link.get("is_test").asBoolean()).isFalse();
    }

    @Test
    void currencyMessagesAreTheDocumentedOnes() {
        MerchantIdentity merchant = newMerchant();
        expectError(merchant, "{\"payment_name\":\"x\",\"amount\":1}", "currency_required", "Currency is required");
        expectError(
                merchant,
                "{\"payment_name\":\"x\",\"amount\":1,\"currency\":\"\"}",
                "currency_required",
                "Currency is required");
        expectError(
                merchant,
                "{\"payment_name\":\"x\",\"amount\":1,\"currency\":\"usdc\"}",
                "currency_not_uppercase",
                "Currency code must be uppercase");
        expectError(
                merchant,
                "{\"payment_name\":\"x\",\"amount\":1,\"currency\":\"BTC\"}",
                "invalid_currency",
                "Invalid currency code");
        expectError(
                merchant,
                "{\"payment_name\":\"x\",\"amount\":1,\"currency\":\"DOGECOINXYZ\"}",
                "invalid_currency",
                "Invalid currency code");
        expectError(
                merchant,
                "{\"payment_name\":\"x\",\"amount\":1,\"currency\":\"US\"}",
                "invalid_currency",
                "Invalid currency code");
    }

    static Stream<Arguments> invalidFields() {
        String longUrl = "https://example.com/" + "a".repeat(481);
        return Stream.of(
                Arguments.of("payment_name", null, "payment_name is required"),
                Arguments.of("payment_name", "", "payment_name is required"),
                Arguments.of("payment_name", "x".repeat(101), "payment_name must be 1-100 characters"),
                Arguments.of("payment_name", 7, "payment_name must be a string"),
                Arguments.of("amount", null, "amount is required"),
                Arguments.of("amount", 0, "amount must be greater than 0"),
                Arguments.of("amount", -1, "amount must be greater than 0"),
                Arguments.of("amount", "10", "amount must be a number"),
                Arguments.of(
                        "amount",
                        new java.math.BigDecimal("0.0000000000000000001"),
                        "amount must have at most 18 decimal places"),
                // USDC has 6 decimals on the test network: 10.0000001 could never be paid exactly.
                Arguments.of(
                        "amount",
                        new java.math.BigDecimal("10.0000001"),
                        "amount has more decimal places than USDC has on Local dev chain (6)"),
                Arguments.of("description", "d".repeat(1001), "description must be at most 1000 characters"),
                Arguments.of(
                        "expires_at",
                        "tomorrow",
                        "expires_at must be an ISO 8601 timestamp with a time zone, e.g. 2026-01-31T12:00:00Z"),
                Arguments.of("expires_at", "2020-01-01T00:00:00Z", "expires_at must be in the future"),
                Arguments.of("max_uses", 0, "max_uses must be greater than 0"),
                Arguments.of("max_uses", 1.5, "max_uses must be an integer"),
                Arguments.of("customer_id", "", "customer_id must be 1-100 characters"),
                Arguments.of("customer_id", "c".repeat(101), "customer_id must be 1-100 characters"),
                Arguments.of("customer_name", "n".repeat(101), "customer_name must be 1-100 characters"),
                Arguments.of("customer_email", "not-an-email", "customer_email must be a valid e-mail address"),
                Arguments.of("product_name", "p".repeat(201), "product_name must be 1-200 characters"),
                Arguments.of(
                        "product_description", "p".repeat(1001), "product_description must be at most 1000 characters"),
                Arguments.of("success_url", "ftp://example.com", "success_url must be a valid http or https URL"),
                Arguments.of("success_url", longUrl, "success_url must be 1-500 characters"),
                Arguments.of("cancel_url", "not a url", "cancel_url must be a valid http or https URL"),
                Arguments.of("auto_fill", "yes", "auto_fill must be true or false"),
                Arguments.of("webhook_metadata", "text", "webhook_metadata must be an object"),
                Arguments.of("cart", List.of(), "cart must be an object"),
                Arguments.of("checkout_mode", "popup", "checkout_mode must be one of hosted, embedded"),
                Arguments.of("order_id", "o".repeat(101), "order_id must be 1-100 characters"),
                Arguments.of("colour", "blue", "Unknown field: colour"));
    }

    @ParameterizedTest(name = "{0} = {1}")
    @MethodSource("invalidFields")
    void refusesAnInvalidFieldNamingIt(String field, Object value, String message) {
        Map<String, Object> body =
                new LinkedHashMap<>(Map.of("payment_name", "Coffee", "amount", 10, "currency", "USDC"));
        body.put(field, value);
        JsonNode error = read(create(newMerchant(), json.writeValueAsString(body))
                .expectStatus()
                .isBadRequest()
                .expectHeader()
                .contentType(MediaType.APPLICATION_PROBLEM_JSON));
        assertThat(error.get("message").asString()).isEqualTo(message);
        assertThat(error.get("detail").asString()).isEqualTo(message);
        assertThat(error.get("errors").get(0).get("field").asString()).isEqualTo(field);
    }

    @Test
    void acceptsEveryFieldAtItsBound() {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("payment_name", "x".repeat(100));
        body.put("amount", new java.math.BigDecimal("0.000000000000000001"));
        body.put("currency", "ETH");
        body.put("description", "d".repeat(1000));
        body.put("customer_id", "c");
        body.put("customer_name", "n".repeat(100));
        body.put("product_name", "p".repeat(200));
        body.put("product_description", "p".repeat(1000));
        body.put("success_url", "https://example.com/" + "a".repeat(480));
        body.put("max_uses", Integer.MAX_VALUE);
        String raw = create(newMerchant(), json.writeValueAsString(body))
                .expectStatus()
                .isCreated()
                .expectBody(String.class)
                .returnResult()
                .getResponseBody();
        assertThat(raw).contains("\"amount\":0.000000000000000001,");
        JsonNode link = json.readTree(raw).get("data");
        assertThat(link.get("success_url").asString()).hasSize(500);
    }

    @Test
    void reportsEveryBadFieldAtOnce() {
        JsonNode error = read(create(newMerchant(), "{\"amount\":-5,\"currency\":\"usdc\"}")
                .expectStatus()
                .isBadRequest());
        assertThat(error.get("errors"))
                .extracting(e -> e.get("field").asString())
                .containsExactly("payment_name", "amount", "currency");
    }

    @Test
    void refusesACartWhoseArithmeticDoesNotAddUp() {
        MerchantIdentity merchant = newMerchant();
        String item = "{\"name\":\"A\",\"quantity\":2,\"unit_price\":0.1,\"total\":0.2}";
        expectError(
                merchant,
                cartBody(
                        "0.3",
                        "{\"items\":[" + item.replace("0.2}", "0.3}") + "],\"subtotal\":0.3,\"tax\":0,\"total\":0.3}"),
                "validation_failed",
                "cart.items[0].total must equal quantity × unit_price");
        expectError(
                merchant,
                cartBody("0.3", "{\"items\":[" + item + "],\"subtotal\":0.3,\"tax\":0,\"total\":0.3}"),
                "validation_failed",
                "cart.subtotal must equal the sum of the item totals");
        expectError(
                merchant,
                cartBody("0.3", "{\"items\":[" + item + "],\"subtotal\":0.2,\"tax\":0,\"total\":0.3}"),
                "validation_failed",
                "cart.total must equal subtotal + shipping + tax");
        expectError(
                merchant,
                cartBody(
                        "0.5",
                        "{\"items\":[" + item + "],\"subtotal\":0.2,\"shipping\":0.1," + "\"tax\":0,\"total\":0.3}"),
                "validation_failed",
                "cart.total must equal amount");
        expectError(
                merchant,
                cartBody("0.3", "{\"items\":[],\"subtotal\":0,\"tax\":0,\"total\":0}"),
                "validation_failed",
                "cart.items must be an array with at least one item");
        expectError(
                merchant,
                cartBody(
                        "0.3",
                        "{\"items\":[{\"name\":\"A\",\"quantity\":0,\"unit_price\":1,"
                                + "\"total\":0}],\"subtotal\":0,\"tax\":0,\"total\":0}"),
                "validation_failed",
                "cart.items[0].quantity must be greater than 0");
        createOk(
                merchant,
                cartBody(
                        "0.3",
                        "{\"items\":[" + item + "],\"subtotal\":0.2,\"shipping\":0.1," + "\"tax\":0,\"total\":0.3}"));
    }

    @Test
    void refusesMalformedBodies() {
        MerchantIdentity merchant = newMerchant();
        expectError(merchant, "{\"payment_name\":", "invalid_request", "Malformed JSON body");
        expectError(merchant, "[1,2]", "invalid_request", "Request body must be a JSON object");
        expectError(
                merchant,
                "{\"payment_name\":\"a\",\"payment_name\":\"b\",\"amount\":1,\"currency\":\"USDC\"}",
                "invalid_request",
                "Malformed JSON body");
        JsonNode error = read(as(merchant, HttpMethod.POST, "/payment_links")
                .exchange()
                .expectStatus()
                .isBadRequest());
        assertThat(error.get("message").asString()).isEqualTo("Request body is required");
    }

    @Test
    void answersConflictForADuplicateOrderIdOfTheSameMerchantAndMode() {
        MerchantIdentity merchant = newMerchant();
        String body = "{\"payment_name\":\"A\",\"amount\":1,\"currency\":\"USDC\",\"order_id\":\"dup-1\"}";
        createOk(merchant, body);

        JsonNode error = read(create(merchant, body).expectStatus().isEqualTo(409));
        assertThat(error.get("code").asString()).isEqualTo("duplicate_order_id");
        assertThat(error.get("message").asString()).isEqualTo("A payment link with this order_id already exists");

        createOk(new MerchantIdentity(merchant.merchantId(), Mode.LIVE), body);
        createOk(newMerchant(), body);
    }

    @Test
    void idempotencyKeyReplaysTheFirstResponseAndRefusesAnotherBody() {
        MerchantIdentity merchant = newMerchant();
        byte[] first = as(merchant, HttpMethod.POST, "/payment_links")
                .header("Idempotency-Key", "key-1")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(MINIMAL)
                .exchange()
                .expectStatus()
                .isCreated()
                .expectBody()
                .returnResult()
                .getResponseBody();
        byte[] second = as(merchant, HttpMethod.POST, "/payment_links")
                .header("Idempotency-Key", "key-1")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(MINIMAL)
                .exchange()
                .expectStatus()
                .isCreated()
                .expectBody()
                .returnResult()
                .getResponseBody();
        assertThat(second).isEqualTo(first);

        JsonNode conflict = read(as(merchant, HttpMethod.POST, "/payment_links")
                .header("Idempotency-Key", "key-1")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(MINIMAL.replace("Coffee", "Tea"))
                .exchange()
                .expectStatus()
                .isEqualTo(409));
        assertThat(conflict.get("code").asString()).isEqualTo("idempotency_key_reused");

        JsonNode list = read(get(merchant, "/payment_links").expectStatus().isOk());
        assertThat(list.get("data").get("pagination").get("total_records").asInt())
                .isEqualTo(1);

        clock.advance(Duration.ofHours(25));
        create(merchant, MINIMAL.replace("Coffee", "Tea")).expectStatus().isCreated();
    }

    @Test
    void fiftyConcurrentCreatesWithDistinctOrderIdsAllSucceed() {
        MerchantIdentity merchant = newMerchant();
        List<Integer> statuses = Flux.range(0, 50)
                .flatMap(
                        i -> Flux.defer(() -> {
                                    var result = create(
                                                    merchant,
                                                    "{\"payment_name\":\"P" + i + "\",\"amount\":1,"
                                                            + "\"currency\":\"USDT\",\"order_id\":\"o-" + i + "\"}")
                                            .returnResult(String.class);
                                    return Flux.just(result.getStatus().value());
                                })
                                .subscribeOn(reactor.core.scheduler.Schedulers.boundedElastic()),
                        50)
                .collectList()
                .block();
        assertThat(statuses).hasSize(50).containsOnly(201);
        JsonNode list =
                read(get(merchant, "/payment_links?limit=100").expectStatus().isOk());
        assertThat(list.get("data").get("pagination").get("total_records").asInt())
                .isEqualTo(50);
    }

    @Test
    void fiftyConcurrentCreatesWithOneOrderIdLetExactlyOneSucceed() {
        MerchantIdentity merchant = newMerchant();
        List<Integer> statuses = Flux.range(0, 50)
                .flatMap(
                        i -> Flux.defer(() -> Flux.just(create(
                                                merchant,
                                                "{\"payment_name\":\"P\",\"amount\":1,"
                                                        + "\"currency\":\"USDT\",\"order_id\":\"same\"}")
                                        .returnResult(String.class)
                                        .getStatus()
                                        .value()))
                                .subscribeOn(reactor.core.scheduler.Schedulers.boundedElastic()),
                        50)
                .collectList()
                .block();
        assertThat(statuses.stream().filter(s -> s == 201)).hasSize(1);
        assertThat(statuses.stream().filter(s -> s == 409)).hasSize(49);
    }

    private String cartBody(String amount, String cart) {
        return "{\"payment_name\":\"Cart\",\"amount\":" + amount + ",\"currency\":\"USDC\",\"cart\":" + cart + "}";
    }

    private void expectError(MerchantIdentity merchant, String body, String code, String message) {
        JsonNode error = read(create(merchant, body).expectStatus().isBadRequest());
        assertThat(error.get("code").asString()).as(body).isEqualTo(code);
        assertThat(error.get("message").asString()).as(body).isEqualTo(message);
        assertThat(error.get("status").asInt()).isEqualTo(400);
    }

    private static Set<String> fieldNames(JsonNode node) {
        return new java.util.HashSet<>(node.propertyNames());
    }
}
