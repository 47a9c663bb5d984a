package dev.cryptopay.paymentlinks.paymentlink;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cryptopay.auth.Mode;
import dev.cryptopay.auth.internal.MerchantIdentity;
import dev.cryptopay.paymentlinks.PaymentLinksTestBase;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpMethod;
import tools.jackson.databind.JsonNode;

class GetAndDeletePaymentLinkTest extends PaymentLinksTestBase {

    @Test
    void getAnswersTheLinkWithAnEmptySummary() {
        MerchantIdentity merchant = newMerchant();
        JsonNode created = createOk(
                merchant,
                "{\"payment_name\":\"Book\",\"amount\":12.25,\"currency\":\"USDC\"," + "\"description\":\"A book\"}");

        JsonNode response =
                read(get(merchant, "/payment_links/" + created.get("id").asString())
                        .expectStatus()
                        .isOk());

        assertThat(response.get("message").asString()).isEqualTo("Payment link retrieved successfully");
        JsonNode link = response.get("data");
        assertThat(link.get("id").asString()).isEqualTo(created.get("id").asString());
        assertThat(link.get("description").asString()).isEqualTo("A book");
        assertThat(link.get("is_expired").asBoolean()).isFalse();
        JsonNode summary = link.get("summary");
        assertThat(summary.get("total_payers").asInt()).isZero();
        assertThat(summary.get("total_transactions").asInt()).isZero();
        assertThat(summary.get("total_amount_received").decimalValue()).isZero();
        assertThat(summary.get("total_amount_received_crypto").decimalValue()).isZero();
        assertThat(summary.get("pending_transactions").asInt()).isZero();
        assertThat(summary.get("completed_transactions").asInt()).isZero();
        assertThat(summary.get("failed_transactions").asInt()).isZero();
    }

    @Test
    void summaryCountsMixedTransactions() {
        MerchantIdentity merchant = newMerchant();
        String id = createOk(
                        merchant,
                        "{\"payment_name\":\"Seats\",\"amount\":10,\"currency\":\"USDC\"," + "\"max_uses\":10}")
                .get("id")
                .asString();
        report(id, "0xa1", "0xPAYER1", "10", "10.01", "confirmed");
        report(id, "0xa2", "0xPAYER1", "10", "9.99", "confirmed");
        report(id, "0xa3", "0xPAYER2", "10.5", "10.5", "confirmed");
        report(id, "0xa4", "0xPAYER3", "10", "10", "pending");
        report(id, "0xa5", "0xPAYER4", "10", "10", "failed");
        report(id, "0xa6", "0xPAYER5", "3", "3", "confirmed");

        JsonNode link = read(get(merchant, "/payment_links/" + id)
                        .expectStatus()
                        .isOk())
                .get("data");
        JsonNode summary = link.get("summary");
        assertThat(summary.get("total_payers").asInt()).isEqualTo(3);
        assertThat(summary.get("total_transactions").asInt()).isEqualTo(6);
        assertThat(summary.get("total_amount_received").decimalValue()).isEqualByComparingTo("33.5");
        assertThat(summary.get("total_amount_received_crypto").decimalValue()).isEqualByComparingTo("33.5");
        assertThat(summary.get("pending_transactions").asInt()).isEqualTo(1);
        assertThat(summary.get("completed_transactions").asInt()).isEqualTo(4);
        assertThat(summary.get("failed_transactions").asInt()).isEqualTo(1);
        assertThat(link.get("current_uses").asInt())
                .as("the 3 USDC underpayment completes no use")
                .isEqualTo(3);
        assertThat(link.get("payment_status").asString()).isEqualTo("processing");
    }

    @Test
    void malformedIdIsA400AndUnknownIsA404() {
        MerchantIdentity merchant = newMerchant();
        JsonNode bad =
                read(get(merchant, "/payment_links/not-a-uuid").expectStatus().isBadRequest());
        assertThat(bad.get("code").asString()).isEqualTo("invalid_id");
        read(delete(merchant, "/payment_links/123").expectStatus().isBadRequest());

        JsonNode missing = read(get(merchant, "/payment_links/" + UUID.randomUUID())
                .expectStatus()
                .isNotFound());
        assertThat(missing.get("message").asString()).isEqualTo("Payment link not found");
        delete(merchant, "/payment_links/" + UUID.randomUUID()).expectStatus().isNotFound();
    }

    @Test
    void anotherMerchantOrModeGetsA404ForEveryRoute() {
        MerchantIdentity owner = newMerchant();
        String id = createOk(owner, "{\"payment_name\":\"Mine\",\"amount\":1,\"currency\":\"USDC\"}")
                .get("id")
                .asString();
        MerchantIdentity stranger = newMerchant();
        MerchantIdentity ownerLive = new MerchantIdentity(owner.merchantId(), Mode.LIVE);

        for (MerchantIdentity other : new MerchantIdentity[] {stranger, ownerLive}) {
            get(other, "/payment_links/" + id).expectStatus().isNotFound();
            delete(other, "/payment_links/" + id).expectStatus().isNotFound();
        }
        JsonNode still =
                read(get(owner, "/payment_links/" + id).expectStatus().isOk()).get("data");
        assertThat(still.get("payment_status").asString()).isEqualTo("pending");
    }

    @Test
    void deleteCancelsAndIsIdempotent() {
        MerchantIdentity merchant = newMerchant();
        String id = createOk(merchant, "{\"payment_name\":\"Gone\",\"amount\":1,\"currency\":\"USDC\"}")
                .get("id")
                .asString();

        JsonNode first =
                read(delete(merchant, "/payment_links/" + id).expectStatus().isOk());
        assertThat(first.get("message").asString()).isEqualTo("Payment link deleted successfully");
        assertThat(first.get("data").get("payment_status").asString()).isEqualTo("cancelled");
        assertThat(first.get("data").get("is_active").asBoolean()).isFalse();
        assertThat(first.get("data").get("is_expired").asBoolean()).isFalse();

        JsonNode second =
                read(delete(merchant, "/payment_links/" + id).expectStatus().isOk());
        assertThat(second.get("data").get("payment_status").asString()).isEqualTo("cancelled");

        JsonNode read = read(get(merchant, "/payment_links/" + id)
                        .expectStatus()
                        .isOk())
                .get("data");
        assertThat(read.get("payment_status").asString()).isEqualTo("cancelled");
        assertThat(read.get("is_active").asBoolean()).isFalse();
    }

    @Test
    void routesRefuseRequestsThatDidNotComeThroughTheGateway() {
        web.get().uri("/payment_links").exchange().expectStatus().isUnauthorized();
        web.method(HttpMethod.POST)
                .uri("/internal/payment_links/" + UUID.randomUUID() + "/transactions")
                .exchange()
                .expectStatus()
                .isUnauthorized();
    }

    private void report(String id, String hash, String payer, String crypto, String fiat, String status) {
        reportTransaction(
                        id,
                        "{\"network\":\"Ethereum\",\"tx_hash\":\"" + hash + "\"," + transfer(0, TEST_USDC)
                                + ",\"payer_address\":\"" + payer
                                + "\",\"crypto_amount\":" + crypto + ",\"fiat_amount\":" + fiat + ",\"status\":\""
                                + status + "\"}")
                .expectStatus()
                .isCreated();
    }
}
