package dev.cryptopay.paymentlinks.paymentlink;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cryptopay.auth.internal.MerchantIdentity;
import dev.cryptopay.paymentlinks.PaymentLinksTestBase;
import dev.cryptopay.testsupport.TestKafka;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** Events reach the real topic, through the outbox relay, in order per merchant. */
class PaymentEventsTest extends PaymentLinksTestBase {

    @Test
    void publishesEveryPaymentEventOfALinkInOrderWithTheDocumentedEnvelope() {
        MerchantIdentity merchant = newMerchant();
        JsonNode link = createOk(
                merchant,
                "{\"payment_name\":\"Hat\",\"amount\":25.5,\"currency\":\"USDT\","
                        + "\"order_id\":\"hat-1\",\"webhook_metadata\":{\"ref\":\"r-1\"}}");
        String id = link.get("id").asString();
        reportTransaction(id, transaction("0xabc", "pending")).expectStatus().isCreated();
        reportTransaction(id, transaction("0xabc", "confirmed")).expectStatus().isOk();

        List<ConsumerRecord<String, String>> records = recordsOf(merchant, 3);

        assertThat(records)
                .extracting(r -> header(r, "event-type"))
                .containsExactly("payment.created", "payment.pending", "payment.completed");
        assertThat(records).extracting(r -> header(r, "aggregate-type")).containsOnly("payment_link");
        assertThat(records).extracting(r -> header(r, "aggregate-id")).containsOnly(id);
        JsonNode completed = json.readTree(records.get(2).value());
        assertThat(completed.get("id").asString()).isEqualTo(header(records.get(2), "event-id"));
        assertThat(completed.get("type").asString()).isEqualTo("payment.completed");
        assertThat(completed.get("merchant_id").asString())
                .isEqualTo(merchant.merchantId().toString());
        assertThat(completed.get("mode").asString()).isEqualTo("test");
        assertThat(completed.get("created_at").asString()).isNotBlank();
        JsonNode data = completed.get("data");
        assertThat(data.get("id").asString()).isEqualTo(id);
        assertThat(data.get("amount").asString()).isEqualTo("25.5");
        assertThat(data.get("currency").asString()).isEqualTo("USDT");
        assertThat(data.get("status").asString()).isEqualTo("completed");
        assertThat(data.get("network").asString()).isEqualTo("Local dev chain");
        assertThat(data.get("transaction_hash").asString()).isEqualTo("0xabc");
        assertThat(data.get("metadata").get("ref").asString()).isEqualTo("r-1");
        assertThat(data.get("payment_url").asString()).isEqualTo("https://pay.test/payment_link?payment_id=" + id);
        assertThat(data.get("order_id").asString()).isEqualTo("hat-1");
        assertThat(data.get("late").asBoolean()).isFalse();
        assertThat(data.get("amount_received").asString()).isEqualTo("25.5");
        assertThat(data.get("transaction_amount").asString()).isEqualTo("25.5");
        assertThat(data.get("confirmations").asInt()).isZero();
        assertThat(data.has("reason")).isFalse();
        assertThat(completed.has("notify"))
                .as("no customer e-mail, no one to notify")
                .isFalse();
        JsonNode pending = json.readTree(records.get(1).value()).get("data");
        assertThat(pending.get("amount_received").asString()).isEqualTo("0");
        assertThat(pending.get("transaction_amount").asString()).isEqualTo("25.5");
        JsonNode created = json.readTree(records.get(0).value()).get("data");
        assertThat(created.get("status").asString()).isEqualTo("pending");
        assertThat(created.get("transaction_hash").isNull()).isTrue();
        assertThat(created.get("amount_received").asString()).isEqualTo("0");
        assertThat(created.get("transaction_amount").isNull()).isTrue();
        assertThat(created.get("confirmations").isNull()).isTrue();
        // What a chain watcher needs: test mode pays on the dev chain; this merchant has no receiving key.
        assertThat(created.get("chain_id").asLong()).isEqualTo(31337);
        assertThat(created.get("token_contract").asString()).isEqualTo("0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0");
        assertThat(created.get("decimals").asInt()).isEqualTo(6);
        assertThat(created.get("amount_base_units").asString()).isEqualTo("25500000");
        assertThat(created.get("deposit_address").isNull()).isTrue();
        assertThat(created.get("expires_at").asString()).isNotBlank();
    }

    @Test
    void theCompletedPaymentOfALinkWithACustomerEmailNamesTheCustomerForTheReceiptAndNothingElseDoes() {
        MerchantIdentity merchant = newMerchant();
        String id = createOk(
                        merchant,
                        "{\"payment_name\":\"Hat\",\"amount\":5,\"currency\":\"USDT\","
                                + "\"customer_name\":\"Ada\",\"customer_email\":\"ada@example.com\"}")
                .get("id")
                .asString();
        reportTransaction(id, transaction("0xabd", "confirmed")).expectStatus().isCreated();

        List<ConsumerRecord<String, String>> records = recordsOf(merchant, 2);

        assertThat(records)
                .extracting(r -> header(r, "event-type"))
                .containsExactly("payment.created", "payment.completed");
        JsonNode completed = json.readTree(records.get(1).value());
        assertThat(completed.get("notify").get("customer_email").asString()).isEqualTo("ada@example.com");
        assertThat(completed.get("notify").get("customer_name").asString()).isEqualTo("Ada");
        assertThat(completed.get("notify").has("merchant_name")).isFalse();
        assertThat(completed.get("data").has("customer_email"))
                .as("the webhook payload stays as documented")
                .isFalse();
        assertThat(json.readTree(records.get(0).value()).has("notify")).isFalse();
    }

    @Test
    void keepsEachMerchantsEventsInTheOrderTheyHappened() {
        MerchantIdentity merchant = newMerchant();
        MerchantIdentity other = newMerchant();
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            expected.add(createOk(merchant, "{\"payment_name\":\"N" + i + "\",\"amount\":1,\"currency\":\"USDC\"}")
                    .get("id")
                    .asString());
            createOk(other, "{\"payment_name\":\"O" + i + "\",\"amount\":1,\"currency\":\"USDC\"}");
        }

        List<ConsumerRecord<String, String>> records = recordsOf(merchant, 10);

        assertThat(records).extracting(r -> header(r, "aggregate-id")).containsExactlyElementsOf(expected);
        assertThat(records)
                .extracting(ConsumerRecord::key)
                .containsOnly(merchant.merchantId().toString());
    }

    private static String transaction(String hash, String status) {
        return "{\"network\":\"Ethereum\",\"tx_hash\":\"" + hash + "\"," + transfer(0, TEST_USDT)
                + ",\"payer_address\":\"0xP\","
                + "\"crypto_amount\":25.5,\"fiat_amount\":25.49,\"status\":\"" + status + "\"}";
    }

    private static String header(ConsumerRecord<String, String> record, String name) {
        return TestKafka.header(record, name);
    }

    static List<ConsumerRecord<String, String>> recordsOf(MerchantIdentity merchant, int expected) {
        return TestKafka.recordsWithKey(
                "payment-links.events", merchant.merchantId().toString(), expected);
    }
}
