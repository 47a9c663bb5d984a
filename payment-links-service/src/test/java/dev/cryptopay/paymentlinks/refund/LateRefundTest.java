package dev.cryptopay.paymentlinks.refund;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cryptopay.auth.internal.MerchantIdentity;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;
import tools.jackson.databind.JsonNode;

/**
 * A late payment and its refunds: the merchant cannot accept (resolve) a late payment while a refund of the link is
 * open, nor once refunds returned so much of it that it no longer covers the link amount — money sent back never
 * completes a link.
 */
class LateRefundTest extends RefundTestBase {

    @Test
    void aLatePaymentCannotBeAcceptedWhileARefundIsOpenNorOnceItWasReturned() {
        MerchantIdentity merchant = merchantWithKey();
        JsonNode created = newLink(merchant, "10", 1);
        String id = created.get("id").asString();
        String deposit = created.get("deposit_address").asString();
        delete(merchant, "/payment_links/" + id).expectStatus().isOk();
        JsonNode late = pay(id, "10", ALICE);
        assertThat(late.get("late").asBoolean()).isTrue();
        String lateHash = late.get("tx_hash").asString();

        refundOk(merchant, id, "{\"amount\":1}");
        JsonNode open = resolve(merchant, id, lateHash, 409);
        assertThat(open.get("code").asString()).isEqualTo("refund_open");

        // The merchant's wallet pays the refund; once confirmed 1 USDC of it is back with the payer.
        String hash = newHash();
        outgoingReport(
                id,
                outgoing(hash, deposit.toLowerCase(Locale.ROOT), ALICE.toLowerCase(Locale.ROOT), "1", "confirmed"),
                201);
        JsonNode returned = resolve(merchant, id, lateHash, 409);
        assertThat(returned.get("code").asString()).isEqualTo("insufficient_amount");
        assertThat(returned.get("message").asString()).contains("less what refunds returned of it (9)");
        // All of it returned: the transfer reads refunded, which is not a payment at all.
        refundOk(merchant, id, "{}");
        outgoingReport(
                id,
                outgoing(newHash(), deposit.toLowerCase(Locale.ROOT), ALICE.toLowerCase(Locale.ROOT), "9", "confirmed"),
                201);
        assertThat(resolve(merchant, id, lateHash, 409).get("code").asString()).isEqualTo("not_confirmed");
        assertThat(link(merchant, id).get("current_uses").asInt()).isZero();
        assertThat(eventTypes(id)).doesNotContain("payment.completed");
    }

    @Test
    void aPartlyRefundedLatePaymentIsAcceptedWhileWhatIsLeftCoversTheLink() {
        MerchantIdentity merchant = merchantWithKey();
        JsonNode created = newLink(merchant, "10", 1);
        String id = created.get("id").asString();
        String deposit = created.get("deposit_address").asString();
        delete(merchant, "/payment_links/" + id).expectStatus().isOk();
        String lateHash = pay(id, "12", ALICE).get("tx_hash").asString();

        refundOk(merchant, id, "{\"amount\":2}");
        outgoingReport(
                id,
                outgoing(newHash(), deposit.toLowerCase(Locale.ROOT), ALICE.toLowerCase(Locale.ROOT), "2", "confirmed"),
                201);

        JsonNode accepted = resolve(merchant, id, lateHash, 200).get("data");
        assertThat(accepted.get("current_uses").asInt()).isEqualTo(1);
        assertThat(eventTypes(id)).contains("payment.completed");
    }

    private JsonNode resolve(MerchantIdentity merchant, String id, String hash, int status) {
        return read(as(merchant, HttpMethod.POST, "/payment_links/" + id + "/resolve")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue("{\"tx_hash\":\"" + hash + "\"}")
                .exchange()
                .expectStatus()
                .isEqualTo(status));
    }
}
