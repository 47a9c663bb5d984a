package dev.cryptopay.paymentlinks.paymentlink;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cryptopay.auth.Mode;
import dev.cryptopay.auth.internal.MerchantIdentity;
import dev.cryptopay.paymentlinks.PaymentLinksTestBase;
import dev.cryptopay.paymentlinks.receiving.TestKeys;
import java.math.BigDecimal;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;
import tools.jackson.databind.JsonNode;

/**
 * The merchant-wide routes over the transfers of all its links: {@code GET /payment_links/transactions} (paged,
 * filtered, newest first, the merchant's own mode only) and {@code GET /payment_links/totals}, which must add up to
 * exactly what the links' summaries say, refunds and late payments included.
 */
class MerchantTransfersTest extends PaymentLinksTestBase {

    private static final String ALICE = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
    private static final String BOB = "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC";
    private static final SecureRandom RANDOM = new SecureRandom();

    private static String newHash() {
        byte[] bytes = new byte[32];
        RANDOM.nextBytes(bytes);
        return "0x" + HexFormat.of().formatHex(bytes);
    }

    private JsonNode link(MerchantIdentity merchant, String name, String amount, String currency, int maxUses) {
        return createOk(
                merchant,
                "{\"payment_name\":\"" + name + "\",\"amount\":" + amount + ",\"currency\":\"" + currency
                        + "\",\"max_uses\":" + maxUses + "}");
    }

    /** Reports a transfer of {@code token} (null: the native coin); answers the recorded transaction. */
    private JsonNode pay(String linkId, String amount, String token, String fiat, String status) {
        // A second apart, so the newest-first order is the order of the reports (the test clock stands still).
        clock.advance(Duration.ofSeconds(1));
        return read(reportTransaction(
                                linkId,
                                "{\"network\":\"Local dev chain\",\"tx_hash\":\"" + newHash() + "\","
                                        + transfer(token == null ? -1 : 0, token) + ",\"payer_address\":\""
                                        + ALICE.toLowerCase(java.util.Locale.ROOT) + "\",\"crypto_amount\":" + amount
                                        + (fiat == null ? "" : ",\"fiat_amount\":" + fiat) + ",\"status\":\""
                                        + status + "\",\"confirmations\":12}")
                        .expectStatus()
                        .isCreated())
                .get("data")
                .get("transaction");
    }

    private JsonNode transactions(MerchantIdentity merchant, String query) {
        return read(get(merchant, "/payment_links/transactions" + query)
                        .expectStatus()
                        .isOk())
                .get("data");
    }

    private JsonNode totals(MerchantIdentity merchant, String query) {
        JsonNode response = read(
                get(merchant, "/payment_links/totals" + query).expectStatus().isOk());
        assertThat(response.get("message").asString()).isEqualTo("Totals retrieved successfully");
        return response.get("data");
    }

    private static List<String> ids(JsonNode page) {
        List<String> ids = new ArrayList<>();
        page.get("data").forEach(transfer -> ids.add(transfer.get("id").asString()));
        return ids;
    }

    @Test
    void listsEveryTransferOfTheMerchantsLinksNewestFirstWithItsLinkPagedAndFiltered() {
        MerchantIdentity merchant = merchantWithKey();
        JsonNode boots = link(merchant, "Boots", "10", "USDC", 1);
        JsonNode hats = link(merchant, "Hats <b>", "5", "USDC", 3);
        String first = pay(boots.get("id").asString(), "10", TEST_USDC, "10", "confirmed")
                .get("id")
                .asString();
        // Boots took its one use: the next transfer to it is late.
        String late = pay(boots.get("id").asString(), "10", TEST_USDC, "10", "confirmed")
                .get("id")
                .asString();
        String pending = pay(hats.get("id").asString(), "5", TEST_USDC, null, "pending")
                .get("id")
                .asString();
        String unexpected = pay(hats.get("id").asString(), "2", TEST_USDT, "2", "confirmed")
                .get("id")
                .asString();

        JsonNode all = transactions(merchant, "");
        assertThat(ids(all)).containsExactly(unexpected, pending, late, first);
        assertThat(all.get("pagination").get("total_records").asInt()).isEqualTo(4);
        assertThat(all.get("pagination").get("per_page").asInt()).isEqualTo(20);
        JsonNode newest = all.get("data").get(0);
        assertThat(newest.get("payment_link_id").asString())
                .isEqualTo(hats.get("id").asString());
        assertThat(newest.get("payment_name").asString()).isEqualTo("Hats <b>");
        assertThat(newest.get("asset").asString()).isEqualTo("USDT");
        assertThat(newest.get("unexpected_asset").asBoolean()).isTrue();
        assertThat(newest.get("crypto_amount").decimalValue()).isEqualByComparingTo("2");
        assertThat(newest.get("log_index").asInt()).isZero();
        assertThat(newest.get("tx_hash").asString()).startsWith("0x");
        assertThat(newest.has("created_at")).isTrue();
        assertThat(newest.has("updated_at")).isTrue();
        JsonNode lateOne = all.get("data").get(2);
        assertThat(lateOne.get("late").asBoolean()).isTrue();
        assertThat(lateOne.get("counted_as_use").asBoolean()).isFalse();
        assertThat(all.get("data").get(3).get("counted_as_use").asBoolean()).isTrue();
        assertThat(all.get("data").get(1).get("fiat_amount").isNull())
                .as("shown, null when unknown")
                .isTrue();

        JsonNode second = transactions(merchant, "?page=2&limit=3");
        assertThat(ids(second)).containsExactly(first);
        assertThat(second.get("pagination").get("has_prev_page").asBoolean()).isTrue();
        assertThat(second.get("pagination").get("total_pages").asInt()).isEqualTo(2);

        assertThat(ids(transactions(merchant, "?status=pending"))).containsExactly(pending);
        assertThat(ids(transactions(merchant, "?status=confirmed"))).containsExactly(unexpected, late, first);
        assertThat(ids(transactions(merchant, "?late=true"))).containsExactly(late);
        assertThat(ids(transactions(merchant, "?counted=true"))).containsExactly(first);
        JsonNode filtered = transactions(merchant, "?status=confirmed&late=false");
        assertThat(ids(filtered)).containsExactly(unexpected, first);
        assertThat(filtered.get("filters").get("status").asString()).isEqualTo("confirmed");
        assertThat(filtered.get("filters").get("late").asBoolean()).isFalse();
        assertThat(ids(transactions(merchant, "?created_to=2000-01-01"))).isEmpty();
        assertThat(ids(transactions(merchant, "?created_from=2000-01-01"))).hasSize(4);
    }

    @Test
    void showsOnlyTheMerchantsOwnTransfersOfTheKeysMode() {
        MerchantIdentity test = merchantWithKey();
        MerchantIdentity live = new MerchantIdentity(test.merchantId(), Mode.LIVE);
        as(live, HttpMethod.PUT, "/payment_links/receiving_key")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue("{\"extended_public_key\":\"" + TestKeys.wallet().xpub() + "\"}")
                .exchange()
                .expectStatus()
                .isCreated();
        MerchantIdentity other = merchantWithKey();
        String testPaid = pay(link(test, "Test", "3", "USDC", 1).get("id").asString(), "3", TEST_USDC, "3", "confirmed")
                .get("id")
                .asString();
        String livePaid = pay(link(live, "Live", "4", "USDC", 1).get("id").asString(), "4", TEST_USDC, "4", "confirmed")
                .get("id")
                .asString();
        pay(link(other, "Other", "5", "USDC", 1).get("id").asString(), "5", TEST_USDC, "5", "confirmed");

        assertThat(ids(transactions(test, ""))).containsExactly(testPaid);
        assertThat(ids(transactions(live, ""))).containsExactly(livePaid);
        assertThat(totals(test, "")
                        .get("currencies")
                        .get(0)
                        .get("amount_received")
                        .decimalValue())
                .isEqualByComparingTo("3");
        // The live link's transfer is the dev chain's USDC, another asset than live USDC: counted nowhere, and
        // neither the test mode's nor the other merchant's money is here.
        assertThat(totals(live, "").get("currencies").size()).isZero();
        assertThat(ids(transactions(newMerchant(), ""))).isEmpty();
        JsonNode none = totals(newMerchant(), "");
        assertThat(none.get("currencies").size()).isZero();
        assertThat(none.get("total_amount_received").decimalValue()).isEqualByComparingTo("0");
        assertThat(none.get("unpriced_transactions").asInt()).isZero();
    }

    @Test
    void totalsAreTheSumOfTheLinksSummariesRefundsAndLatePaymentsIncluded() {
        MerchantIdentity merchant = merchantWithKey();
        JsonNode boots = link(merchant, "Boots", "10", "USDC", 1);
        String bootsId = boots.get("id").asString();
        pay(bootsId, "10", TEST_USDC, "10", "confirmed");
        pay(bootsId, "10", TEST_USDC, "10", "confirmed"); // late: Boots took its one use
        // 4 USDC of Boots returned by a completed refund.
        read(as(merchant, HttpMethod.POST, "/payment_links/" + bootsId + "/refunds")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue("{\"amount\":4,\"address\":\"" + BOB + "\"}")
                .exchange()
                .expectStatus()
                .isCreated());
        reportOutgoing(bootsId, outgoing(newHash(), boots.get("deposit_address").asString(), BOB, "4", "confirmed"))
                .expectStatus()
                .is2xxSuccessful();
        String hats = link(merchant, "Hats", "2.5", "USDC", 5).get("id").asString();
        pay(hats, "2.5", TEST_USDC, null, "confirmed"); // unpriced
        pay(hats, "2.5", TEST_USDC, "2.5", "pending");
        pay(hats, "7", TEST_USDT, "7", "confirmed"); // unexpected asset: counts nowhere
        String eth = link(merchant, "Ether", "0.5", "ETH", 2).get("id").asString();
        pay(eth, "0.5", null, "1500.5", "confirmed");

        JsonNode totals = totals(merchant, "");
        BigDecimal usd = BigDecimal.ZERO;
        long unpriced = 0;
        BigDecimal usdc = BigDecimal.ZERO;
        BigDecimal ether = BigDecimal.ZERO;
        for (String id : List.of(bootsId, hats, eth)) {
            JsonNode summary = read(get(merchant, "/payment_links/" + id)
                            .expectStatus()
                            .isOk())
                    .get("data")
                    .get("summary");
            usd = usd.add(summary.get("total_amount_received").decimalValue());
            unpriced += summary.get("unpriced_transactions").asLong();
            BigDecimal crypto = summary.get("total_amount_received_crypto").decimalValue();
            if (id.equals(eth)) {
                ether = ether.add(crypto);
            } else {
                usdc = usdc.add(crypto);
            }
        }
        assertThat(usdc).as("10 + 10 late - 4 refunded + 2.5").isEqualByComparingTo("18.5");
        assertThat(totals.get("total_amount_received").decimalValue()).isEqualByComparingTo(usd);
        assertThat(usd).isEqualByComparingTo("1516.5");
        assertThat(totals.get("unpriced_transactions").asLong())
                .isEqualTo(unpriced)
                .isEqualTo(1);
        assertThat(totals.get("fiat_currency").asString()).isEqualTo("USD");
        JsonNode currencies = totals.get("currencies");
        assertThat(currencies.size()).isEqualTo(2);
        assertThat(currencies.get(0).get("currency").asString()).isEqualTo("ETH");
        assertThat(currencies.get(0).get("amount_received").decimalValue()).isEqualByComparingTo(ether);
        assertThat(currencies.get(0).get("transactions").asInt()).isEqualTo(1);
        assertThat(currencies.get(1).get("currency").asString()).isEqualTo("USDC");
        assertThat(currencies.get(1).get("amount_received").decimalValue()).isEqualByComparingTo(usdc);
        assertThat(currencies.get(1).get("transactions").asInt()).isEqualTo(3);
        assertThat(currencies.get(1).get("unpriced_transactions").asInt()).isEqualTo(1);

        JsonNode before = totals(merchant, "?created_to=2000-01-01");
        assertThat(before.get("currencies").size()).isZero();
        assertThat(before.get("created_to").asString()).startsWith("2000-01-01T23:59:59");
        assertThat(totals(merchant, "?created_from=2000-01-01")
                        .get("total_amount_received")
                        .decimalValue())
                .isEqualByComparingTo(usd);
    }

    @Test
    void badFiltersAreA400NamingTheParameter() {
        MerchantIdentity merchant = newMerchant();
        expectError(merchant, "/payment_links/transactions?status=paid", "status");
        expectError(merchant, "/payment_links/transactions?late=maybe", "late");
        expectError(merchant, "/payment_links/transactions?counted=1x", "counted");
        expectError(merchant, "/payment_links/transactions?limit=101", "limit");
        expectError(merchant, "/payment_links/transactions?page=0", "page");
        expectError(merchant, "/payment_links/transactions?created_from=yesterday", "created_from");
        expectError(merchant, "/payment_links/totals?created_to=%2B100000-01-01T00:00:00Z", "created_to");
        expectError(merchant, "/payment_links/totals?created_from=2024-02-01&created_to=2024-01-01", "created_from");
    }

    @Test
    void theLiteralRoutesDoNotShadowALinksId() {
        MerchantIdentity merchant = newMerchant();
        String id = link(merchant, "Tea", "3", "USDC", 1).get("id").asString();
        get(merchant, "/payment_links/" + id).expectStatus().isOk();
        get(merchant, "/payment_links/" + UUID.randomUUID()).expectStatus().isNotFound();
        get(merchant, "/payment_links/transaction").expectStatus().isBadRequest();
    }

    private void expectError(MerchantIdentity merchant, String uri, String field) {
        JsonNode problem = read(asEncoded(merchant, HttpMethod.GET, uri)
                .exchange()
                .expectStatus()
                .isBadRequest());
        assertThat(problem.get("code").asString()).as(uri).isEqualTo("validation_failed");
        assertThat(problem.get("errors").get(0).get("field").asString()).as(uri).isEqualTo(field);
    }
}
