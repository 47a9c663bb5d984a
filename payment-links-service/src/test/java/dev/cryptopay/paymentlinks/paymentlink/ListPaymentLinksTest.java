package dev.cryptopay.paymentlinks.paymentlink;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cryptopay.auth.Mode;
import dev.cryptopay.auth.internal.MerchantIdentity;
import dev.cryptopay.paymentlinks.PaymentLinksTestBase;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

class ListPaymentLinksTest extends PaymentLinksTestBase {

    private JsonNode list(MerchantIdentity merchant, String query) {
        return read(get(merchant, "/payment_links" + query).expectStatus().isOk());
    }

    private static List<String> names(JsonNode response) {
        List<String> names = new ArrayList<>();
        response.get("data")
                .get("data")
                .forEach(link -> names.add(link.get("payment_name").asString()));
        return names;
    }

    private void createNamed(MerchantIdentity merchant, String name, String amount, String currency) {
        createOk(
                merchant,
                "{\"payment_name\":\"" + name + "\",\"amount\":" + amount + ",\"currency\":\"" + currency + "\"}");
        clock.advance(Duration.ofSeconds(1));
    }

    @Test
    void answersTheDocumentedShapeWithDefaults() {
        MerchantIdentity merchant = newMerchant();
        createNamed(merchant, "First", "1", "USDC");
        createNamed(merchant, "Second", "2", "USDC");

        JsonNode response = list(merchant, "");
        assertThat(response.get("message").asString()).isEqualTo("Payment links retrieved successfully");
        JsonNode pagination = response.get("data").get("pagination");
        assertThat(pagination.get("current_page").asInt()).isEqualTo(1);
        assertThat(pagination.get("per_page").asInt()).isEqualTo(20);
        assertThat(pagination.get("total_pages").asInt()).isEqualTo(1);
        assertThat(pagination.get("total_records").asInt()).isEqualTo(2);
        assertThat(pagination.get("has_next_page").asBoolean()).isFalse();
        assertThat(pagination.get("has_prev_page").asBoolean()).isFalse();
        assertThat(response.get("data").get("filters").get("sort_by").asString())
                .isEqualTo("created_at");
        assertThat(response.get("data").get("filters").get("sort_order").asString())
                .isEqualTo("desc");
        assertThat(names(response)).containsExactly("Second", "First");
        JsonNode item = response.get("data").get("data").get(0);
        assertThat(item.get("is_expired").asBoolean()).isFalse();
        assertThat(item.has("summary")).isFalse();
    }

    @Test
    void pagesWithoutRepeatingOrSkipping() {
        MerchantIdentity merchant = newMerchant();
        for (int i = 1; i <= 7; i++) {
            createNamed(merchant, "L" + i, "1", "USDC");
        }
        JsonNode first = list(merchant, "?page=1&limit=3");
        JsonNode third = list(merchant, "?page=3&limit=3");
        JsonNode beyond = list(merchant, "?page=4&limit=3");

        assertThat(names(first)).containsExactly("L7", "L6", "L5");
        assertThat(names(list(merchant, "?page=2&limit=3"))).containsExactly("L4", "L3", "L2");
        assertThat(names(third)).containsExactly("L1");
        assertThat(first.get("data").get("pagination").get("total_pages").asInt())
                .isEqualTo(3);
        assertThat(first.get("data").get("pagination").get("has_next_page").asBoolean())
                .isTrue();
        assertThat(first.get("data").get("pagination").get("has_prev_page").asBoolean())
                .isFalse();
        assertThat(third.get("data").get("pagination").get("has_next_page").asBoolean())
                .isFalse();
        assertThat(third.get("data").get("pagination").get("has_prev_page").asBoolean())
                .isTrue();
        assertThat(names(beyond)).isEmpty();
        assertThat(names(list(merchant, "?limit=100"))).hasSize(7);
    }

    @Test
    void filtersByEachParameter() {
        MerchantIdentity merchant = newMerchant();
        String start = clock.instant().toString();
        createNamed(merchant, "Coffee beans", "5", "USDC");
        createNamed(merchant, "Tea leaves", "15", "USDT");
        createOk(
                merchant,
                "{\"payment_name\":\"Mug\",\"amount\":25,\"currency\":\"ETH\"," + "\"description\":\"A COFFEE mug\"}");
        clock.advance(Duration.ofSeconds(1));
        String middle = clock.instant().toString();
        clock.advance(Duration.ofSeconds(1));
        JsonNode cancelled = createOk(merchant, "{\"payment_name\":\"Old\",\"amount\":35,\"currency\":\"ETH\"}");
        delete(merchant, "/payment_links/" + cancelled.get("id").asString())
                .expectStatus()
                .isOk();

        assertThat(names(list(merchant, "?currency=ETH"))).containsExactlyInAnyOrder("Mug", "Old");
        assertThat(names(list(merchant, "?currency=eth"))).containsExactlyInAnyOrder("Mug", "Old");
        assertThat(names(list(merchant, "?min_amount=10&max_amount=25")))
                .containsExactlyInAnyOrder("Tea leaves", "Mug");
        assertThat(names(list(merchant, "?search=coffee"))).containsExactlyInAnyOrder("Coffee beans", "Mug");
        assertThat(names(list(merchant, "?search=100%25"))).isEmpty();
        assertThat(names(list(merchant, "?status=cancelled"))).containsExactly("Old");
        assertThat(names(list(merchant, "?status=pending")))
                .containsExactlyInAnyOrder("Coffee beans", "Tea leaves", "Mug");
        assertThat(names(list(merchant, "?is_active=false"))).containsExactly("Old");
        assertThat(names(list(merchant, "?is_active=true"))).hasSize(3);
        assertThat(names(list(merchant, "?created_from=" + start + "&created_to=" + middle)))
                .containsExactlyInAnyOrder("Coffee beans", "Tea leaves", "Mug");
        assertThat(names(list(merchant, "?created_from=" + middle))).containsExactly("Old");
    }

    @Test
    void pendingLinksPastExpiryListAsExpiredBeforeTheSweeperRuns() {
        MerchantIdentity merchant = newMerchant();
        createNamed(merchant, "Soon", "1", "USDC");
        clock.advance(Duration.ofHours(25));
        createNamed(merchant, "Fresh", "1", "USDC");

        assertThat(names(list(merchant, "?status=expired"))).containsExactly("Soon");
        assertThat(names(list(merchant, "?status=pending"))).containsExactly("Fresh");
        JsonNode expired =
                list(merchant, "?status=expired").get("data").get("data").get(0);
        assertThat(expired.get("payment_status").asString()).isEqualTo("expired");
        assertThat(expired.get("is_expired").asBoolean()).isTrue();
    }

    @Test
    void sortsByEachWhitelistedColumnInBothOrders() {
        MerchantIdentity merchant = newMerchant();
        createNamed(merchant, "banana", "3", "USDC");
        createNamed(merchant, "Apple", "1", "USDC");
        createNamed(merchant, "cherry", "2", "USDC");

        assertThat(names(list(merchant, "?sort_by=name&sort_order=asc"))).containsExactly("Apple", "banana", "cherry");
        assertThat(names(list(merchant, "?sort_by=name&sort_order=desc"))).containsExactly("cherry", "banana", "Apple");
        assertThat(names(list(merchant, "?sort_by=amount&sort_order=asc")))
                .containsExactly("Apple", "cherry", "banana");
        assertThat(names(list(merchant, "?sort_by=amount"))).containsExactly("banana", "cherry", "Apple");
        assertThat(names(list(merchant, "?sort_by=created_at&sort_order=asc")))
                .containsExactly("banana", "Apple", "cherry");
        assertThat(names(list(merchant, "?sort_by=updated_at&sort_order=desc")))
                .containsExactly("cherry", "Apple", "banana");
        JsonNode filters =
                list(merchant, "?sort_by=amount&sort_order=asc").get("data").get("filters");
        assertThat(filters.get("sort_by").asString()).isEqualTo("amount");
        assertThat(filters.get("sort_order").asString()).isEqualTo("asc");
    }

    @Test
    void refusesInvalidQueryValuesNamingEachParameter() {
        MerchantIdentity merchant = newMerchant();
        expectQueryError(merchant, "?page=0", "page", "page must be at least 1");
        expectQueryError(merchant, "?page=abc", "page", "page must be an integer");
        expectQueryError(merchant, "?limit=101", "limit", "limit must be between 1 and 100");
        expectQueryError(merchant, "?limit=0", "limit", "limit must be between 1 and 100");
        expectQueryError(
                merchant,
                "?status=paid",
                "status",
                "status must be one of pending, processing, completed, expired, cancelled");
        expectQueryError(merchant, "?is_active=yes", "is_active", "is_active must be true or false");
        expectQueryError(merchant, "?currency=US", "currency", "currency must be 3-10 characters");
        expectQueryError(merchant, "?min_amount=0", "min_amount", "min_amount must be greater than 0");
        expectQueryError(merchant, "?max_amount=x", "max_amount", "max_amount must be a number");
        expectQueryError(
                merchant, "?min_amount=5&max_amount=1", "min_amount", "min_amount must not be greater than max_amount");
        expectQueryError(
                merchant,
                "?created_from=yesterday",
                "created_from",
                "created_from must be an ISO 8601 timestamp or date");
        expectQueryError(merchant, "?search=" + "s".repeat(101), "search", "search must be at most 100 characters");
        expectQueryError(
                merchant,
                "?sort_by=payment_name",
                "sort_by",
                "sort_by must be one of created_at, updated_at, amount, name");
        expectQueryError(merchant, "?sort_order=up", "sort_order", "sort_order must be asc or desc");
    }

    @Test
    void showsOnlyTheMerchantsOwnLinksOfTheKeysMode() {
        UUID merchantId = UUID.randomUUID();
        MerchantIdentity test = new MerchantIdentity(merchantId, Mode.TEST);
        MerchantIdentity live = new MerchantIdentity(merchantId, Mode.LIVE);
        createNamed(test, "test link", "1", "USDC");
        createNamed(live, "live link", "1", "USDC");
        createNamed(newMerchant(), "someone else", "1", "USDC");

        assertThat(names(list(test, ""))).containsExactly("test link");
        assertThat(names(list(live, ""))).containsExactly("live link");
    }

    private void expectQueryError(MerchantIdentity merchant, String query, String field, String message) {
        JsonNode error =
                read(get(merchant, "/payment_links" + query).expectStatus().isBadRequest());
        assertThat(error.get("message").asString()).as(query).isEqualTo(message);
        assertThat(error.get("errors").get(0).get("field").asString()).isEqualTo(field);
    }
}
