package dev.cryptopay.paymentlinks.transaction;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cryptopay.auth.internal.MerchantIdentity;
import dev.cryptopay.paymentlinks.PaymentLinksTestBase;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.r2dbc.core.DatabaseClient;
import tools.jackson.databind.JsonNode;

/**
 * What a checkout needs from transaction reports: the optional {@code required_confirmations}, confirmation counts of
 * a pending transaction that move on repeated reports, and top-ups that complete an underpaid link.
 */
class TransactionProgressTest extends PaymentLinksTestBase {

    @Autowired
    DatabaseClient database;

    private String newLink(MerchantIdentity merchant) {
        return createOk(merchant, "{\"payment_name\":\"Ticket\",\"amount\":10,\"currency\":\"USDC\"}")
                .get("id")
                .asString();
    }

    private static String report(String hash, String amount, String status, String progress) {
        return "{\"network\":\"Ethereum\",\"tx_hash\":\"" + hash + "\"," + transfer(0, TEST_USDC)
                + ",\"payer_address\":\"0xPAYER\","
                + "\"crypto_amount\":" + amount + ",\"status\":\"" + status + "\"" + progress + "}";
    }

    @Test
    void requiredConfirmationsIsAnOptionalPositiveInteger() {
        String id = newLink(newMerchant());
        for (String bad : new String[] {"0", "-1", "2.5", "\"12\"", "1e40"}) {
            JsonNode error =
                    read(reportTransaction(id, report("0xr0", "10", "pending", ",\"required_confirmations\":" + bad))
                            .expectStatus()
                            .isBadRequest());
            assertThat(error.get("errors"))
                    .as(bad)
                    .extracting(e -> e.get("field").asString())
                    .containsExactly("required_confirmations");
        }
        JsonNode recorded = read(reportTransaction(
                                id,
                                report("0xr1", "10", "pending", ",\"confirmations\":2,\"required_confirmations\":12"))
                        .expectStatus()
                        .isCreated())
                .get("data")
                .get("transaction");
        assertThat(recorded.get("confirmations").asInt()).isEqualTo(2);
        assertThat(recorded.get("required_confirmations").asInt()).isEqualTo(12);
    }

    @Test
    void aRepeatedPendingReportMovesTheConfirmationsWithoutAnEvent() {
        String id = newLink(newMerchant());
        reportTransaction(id, report("0xr2", "10", "pending", ",\"confirmations\":1,\"required_confirmations\":6"))
                .expectStatus()
                .isCreated();
        JsonNode again = read(reportTransaction(id, report("0xr2", "10", "pending", ",\"confirmations\":4"))
                        .expectStatus()
                        .isOk())
                .get("data");
        assertThat(again.get("transaction").get("confirmations").asInt()).isEqualTo(4);
        assertThat(again.get("transaction").get("required_confirmations").asInt())
                .as("kept when a report leaves it out")
                .isEqualTo(6);
        assertThat(again.get("payment_link").get("payment_status").asString()).isEqualTo("processing");
        assertThat(eventTypes(id)).containsExactly("payment.created", "payment.pending");
    }

    @Test
    void aTopUpOfAnUnderpaymentCompletesTheUseAndConsumesThePartialPayment() {
        String id = createOk(
                        newMerchant(),
                        "{\"payment_name\":\"Seats\",\"amount\":10,\"currency\":\"USDC\",\"max_uses\":2}")
                .get("id")
                .asString();
        JsonNode partial = read(reportTransaction(id, report("0xt1", "4", "confirmed", ""))
                        .expectStatus()
                        .isCreated())
                .get("data");
        assertThat(partial.get("transaction").get("counted_as_use").asBoolean()).isFalse();
        assertThat(partial.get("payment_link").get("current_uses").asInt()).isZero();

        JsonNode topUp = read(reportTransaction(id, report("0xt2", "6", "confirmed", ""))
                        .expectStatus()
                        .isCreated())
                .get("data");
        assertThat(topUp.get("transaction").get("counted_as_use").asBoolean()).isTrue();
        assertThat(topUp.get("payment_link").get("current_uses").asInt()).isEqualTo(1);

        JsonNode next = read(reportTransaction(id, report("0xt3", "6", "confirmed", ""))
                        .expectStatus()
                        .isCreated())
                .get("data");
        assertThat(next.get("payment_link").get("current_uses").asInt())
                .as("the consumed partial payment does not count twice")
                .isEqualTo(1);
        assertThat(eventTypes(id)).containsExactly("payment.created", "payment.completed");
    }

    private List<String> eventTypes(String linkId) {
        return database.sql("SELECT event_type FROM outbox_event WHERE aggregate_id = :id ORDER BY position")
                .bind("id", linkId)
                .map(row -> row.get("event_type", String.class))
                .all()
                .collectList()
                .block();
    }
}
