package dev.cryptopay.paymentlinks.refund;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cryptopay.auth.Mode;
import dev.cryptopay.auth.internal.MerchantIdentity;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;
import tools.jackson.databind.JsonNode;

/**
 * {@code POST /payment_links/{id}/refunds} and its list: what a refund defaults to, what it may not exceed, how its
 * body is judged, idempotency, tenant isolation, and the {@code transfer.initiated} a chain watcher follows.
 */
class RefundsTest extends RefundTestBase {

    @Test
    void aRefundOfTheLinksMoneyDefaultsToWhatItReceivedAndItsOnePayerAndIsAnnounced() {
        MerchantIdentity merchant = merchantWithKey();
        JsonNode link = newLink(merchant, "10", 1);
        String id = link.get("id").asString();
        String deposit = link.get("deposit_address").asString();
        pay(id, "10", ALICE.toLowerCase(Locale.ROOT));
        Instant now = clock.instant();

        JsonNode response = read(refund(merchant, id, "{}").expectStatus().isCreated());
        assertThat(response.get("message").asString()).isEqualTo("Refund initiated successfully");
        JsonNode refund = response.get("data");
        assertThat(refund.get("payment_link_id").asString()).isEqualTo(id);
        assertThat(refund.has("transaction_id"))
                .as("a refund of the link's money")
                .isFalse();
        assertThat(refund.get("status").asString()).isEqualTo("initiated");
        assertThat(refund.get("amount").decimalValue()).isEqualByComparingTo("10");
        assertThat(refund.get("asset").asString()).isEqualTo("USDC");
        assertThat(refund.get("token_contract").asString()).isEqualTo(TEST_USDC);
        assertThat(refund.get("decimals").asInt()).isEqualTo(6);
        assertThat(refund.get("amount_base_units").asString()).isEqualTo("10000000");
        assertThat(refund.get("network").asString()).isEqualTo("Local dev chain");
        assertThat(refund.get("chain_id").asLong()).isEqualTo(31337);
        assertThat(refund.get("from_address").asString()).isEqualTo(deposit);
        assertThat(refund.get("to_address").asString())
                .as("the payer, in EIP-55 form")
                .isEqualTo(ALICE);
        assertThat(refund.get("payment_uri").asString())
                .isEqualTo("ethereum:0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512@31337/transfer?address=" + ALICE
                        + "&uint256=10000000");
        assertThat(Instant.parse(refund.get("expires_at").asString())).isEqualTo(now.plus(Duration.ofHours(72)));
        assertThat(refund.has("tx_hash")).isFalse();

        // What a chain watcher needs to watch the deposit address's outgoing transfers until expires_at.
        assertThat(eventTypes(id)).containsExactly("payment.created", "payment.completed", "transfer.initiated");
        JsonNode initiated = lastEvent(id, "transfer.initiated");
        assertThat(initiated.get("refund_id").asString())
                .isEqualTo(refund.get("id").asString());
        assertThat(initiated.get("payment_link_id").asString()).isEqualTo(id);
        assertThat(initiated.get("status").asString()).isEqualTo("initiated");
        assertThat(initiated.get("deposit_address").asString()).isEqualTo(deposit);
        assertThat(initiated.get("chain_id").asLong()).isEqualTo(31337);
        assertThat(initiated.get("network").asString()).isEqualTo("Local dev chain");
        assertThat(initiated.get("token_contract").asString()).isEqualTo(TEST_USDC);
        assertThat(initiated.get("decimals").asInt()).isEqualTo(6);
        assertThat(initiated.get("to_address").asString()).isEqualTo(ALICE);
        assertThat(initiated.get("amount").asString()).isEqualTo("10");
        assertThat(initiated.get("amount_base_units").asString()).isEqualTo("10000000");
        assertThat(initiated.get("expires_at").asString())
                .isEqualTo(refund.get("expires_at").asString());
        assertThat(initiated.get("payment_uri").asString())
                .isEqualTo(refund.get("payment_uri").asString());
        assertThat(initiated.get("transaction_hash").isNull()).isTrue();
        assertThat(initiated.has("reason")).isFalse();

        // It claims all the money: nothing is left to refund while it is open.
        assertThat(refundRefused(merchant, id, "{}", 409).get("code").asString())
                .isEqualTo("nothing_to_refund");
        JsonNode listed = refunds(merchant, id, "");
        assertThat(listed.get("data")).hasSize(1);
        assertThat(listed.get("data").get(0)).isEqualTo(refund);
        assertThat(listed.get("pagination").get("total_records").asInt()).isEqualTo(1);
        assertThat(link(merchant, id).get("refunds").get(0)).isEqualTo(refund);
    }

    @Test
    void lateMoneyInTheLinksTokenCanBeRefundedAndAnAmountLeavesTheRestRefundable() {
        MerchantIdentity merchant = merchantWithKey();
        String id = newLink(merchant, "10", 1).get("id").asString();
        pay(id, "10", ALICE);
        JsonNode late = pay(id, "4.5", ALICE);
        assertThat(late.get("late").asBoolean()).isTrue();
        // A wrong token is no part of the link's money.
        pay(id, "100", ALICE, TEST_USDT, null);

        JsonNode first = refundOk(merchant, id, "{\"amount\":4.5}");
        assertThat(first.get("amount").decimalValue()).isEqualByComparingTo("4.5");
        assertThat(first.get("amount_base_units").asString()).isEqualTo("4500000");
        JsonNode rest = refundOk(merchant, id, "{\"address\":\"" + BOB + "\"}");
        assertThat(rest.get("amount").decimalValue())
                .as("14.5 received, 4.5 claimed")
                .isEqualByComparingTo("10");
        assertThat(rest.get("to_address").asString()).isEqualTo(BOB);
        assertThat(refundRefused(merchant, id, "{\"amount\":0.000001}", 409)
                        .get("code")
                        .asString())
                .isEqualTo("nothing_to_refund");
    }

    @Test
    void anAmountAboveWhatCanBeRefundedIsRefused() {
        MerchantIdentity merchant = merchantWithKey();
        String id = newLink(merchant, "10", 2).get("id").asString();
        pay(id, "10", ALICE);

        JsonNode refused = refundRefused(merchant, id, "{\"amount\":10.000001}", 409);
        assertThat(refused.get("code").asString()).isEqualTo("exceeds_refundable");
        assertThat(refused.get("message").asString())
                .isEqualTo("amount (10.000001) exceeds what can be refunded (10 USDC)");
        refundOk(merchant, id, "{\"amount\":6}");
        assertThat(refundRefused(merchant, id, "{\"amount\":4.5}", 409)
                        .get("message")
                        .asString())
                .isEqualTo("amount (4.5) exceeds what can be refunded (4 USDC)");
        assertThat(refundOk(merchant, id, "{\"amount\":4}").get("amount").decimalValue())
                .isEqualByComparingTo("4");
    }

    @Test
    void paymentsFromSeveralAddressesNeedAnAddress() {
        MerchantIdentity merchant = merchantWithKey();
        String id = newLink(merchant, "10", 3).get("id").asString();
        pay(id, "10", ALICE);
        pay(id, "10", BOB);

        JsonNode refused = refundRefused(merchant, id, "{}", 400);
        assertThat(refused.get("code").asString()).isEqualTo("address_required");
        assertThat(refused.get("errors").get(0).get("field").asString()).isEqualTo("address");
        JsonNode refund = refundOk(merchant, id, "{\"address\":\"" + CAROL.toLowerCase(Locale.ROOT) + "\"}");
        assertThat(refund.get("to_address").asString())
                .as("stored in EIP-55 form")
                .isEqualTo(CAROL);
        assertThat(refund.get("amount").decimalValue()).isEqualByComparingTo("20");

        // A payer address that is no address (as a watcher might once have reported it) is no default either.
        String other = newLink(merchant, "1", 1).get("id").asString();
        pay(other, "1", "0xPAYER");
        assertThat(refundRefused(merchant, other, "{}", 400).get("code").asString())
                .isEqualTo("address_required");
    }

    @Test
    void aRefundOfOneTransferDefaultsToWhatRefundsOfItDoNotClaimAndToItsPayer() {
        MerchantIdentity merchant = merchantWithKey();
        String id = newLink(merchant, "10", 5).get("id").asString();
        String alices = pay(id, "10", ALICE).get("id").asString();
        String bobs = pay(id, "10", BOB).get("id").asString();
        String ofBobs = "\"transaction_id\":\"" + bobs + "\"";

        JsonNode three = refundOk(merchant, id, "{" + ofBobs + ",\"amount\":3}");
        assertThat(three.get("transaction_id").asString()).isEqualTo(bobs);
        assertThat(three.get("to_address").asString()).isEqualTo(BOB);
        assertThat(refundRefused(merchant, id, "{" + ofBobs + ",\"amount\":8}", 409)
                        .get("code")
                        .asString())
                .isEqualTo("exceeds_refundable");
        JsonNode rest = refundOk(merchant, id, "{" + ofBobs + "}");
        assertThat(rest.get("amount").decimalValue()).isEqualByComparingTo("7");
        assertThat(refundRefused(merchant, id, "{" + ofBobs + "}", 409)
                        .get("code")
                        .asString())
                .isEqualTo("nothing_to_refund");

        // The link's own pool knows those claims: 20 received, 10 claimed.
        assertThat(refundOk(merchant, id, "{\"address\":\"" + ALICE + "\"}")
                        .get("amount")
                        .decimalValue())
                .isEqualByComparingTo("10");
        assertThat(refundRefused(merchant, id, "{\"transaction_id\":\"" + alices + "\"}", 409)
                        .get("code")
                        .asString())
                .as("its money is claimed by the refund of the link's money")
                .isEqualTo("nothing_to_refund");
        assertThat(refunds(merchant, id, "?limit=2&page=2").get("data")).hasSize(1);
    }

    @Test
    void anUnexpectedAssetIsRefundedInItsOwnTokenAndAnUnknownTokenCannotBe() {
        MerchantIdentity merchant = merchantWithKey();
        String id = newLink(merchant, "10", 1).get("id").asString();
        String usdt = pay(id, "5", ALICE, TEST_USDT, null).get("id").asString();
        String eth = pay(id, "0.25", BOB, null, null).get("id").asString();
        String stranger =
                pay(id, "1", ALICE, "0x" + "ab".repeat(20), null).get("id").asString();

        assertThat(refundRefused(merchant, id, "{}", 409).get("code").asString())
                .as("the link's own money: nothing arrived")
                .isEqualTo("nothing_to_refund");
        assertThat(refundRefused(merchant, id, "{\"transaction_id\":\"" + usdt + "\",\"amount\":0.0000001}", 400)
                        .get("code")
                        .asString())
                .isEqualTo("amount_too_precise");
        JsonNode ofUsdt = refundOk(merchant, id, "{\"transaction_id\":\"" + usdt + "\"}");
        assertThat(ofUsdt.get("asset").asString()).isEqualTo("USDT");
        assertThat(ofUsdt.get("amount_base_units").asString()).isEqualTo("5000000");
        assertThat(ofUsdt.get("payment_uri").asString())
                .isEqualTo("ethereum:0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0@31337/transfer?address=" + ALICE
                        + "&uint256=5000000");
        JsonNode ofEth = refundOk(merchant, id, "{\"transaction_id\":\"" + eth + "\"}");
        assertThat(ofEth.get("asset").asString()).isEqualTo("ETH");
        assertThat(ofEth.has("token_contract")).isFalse();
        assertThat(ofEth.get("payment_uri").asString())
                .isEqualTo("ethereum:" + BOB + "@31337?value=250000000000000000");
        assertThat(refundRefused(merchant, id, "{\"transaction_id\":\"" + stranger + "\"}", 409)
                        .get("code")
                        .asString())
                .isEqualTo("unknown_token");
    }

    @Test
    void badBodiesAreRefusedFieldByField() {
        MerchantIdentity merchant = merchantWithKey();
        JsonNode link = newLink(merchant, "10", 1);
        String id = link.get("id").asString();
        pay(id, "10", ALICE);

        assertThat(code(merchant, id, "{\"amount\":0}")).isEqualTo("validation_failed");
        assertThat(code(merchant, id, "{\"amount\":-1}")).isEqualTo("validation_failed");
        assertThat(code(merchant, id, "{\"amount\":\"5\"}")).isEqualTo("validation_failed");
        assertThat(code(merchant, id, "{\"amount\":1.0000001}")).isEqualTo("amount_too_precise");
        assertThat(code(merchant, id, "{\"address\":\"0x1234\"}")).isEqualTo("invalid_address");
        // One letter of a checksummed address in the other case: a typing error, never guessed at.
        String misspelt = "0x70997970c51812dc3A010C7d01b50e0d17dc79C8";
        JsonNode checksum = refundRefused(merchant, id, "{\"address\":\"" + misspelt + "\"}", 400);
        assertThat(checksum.get("code").asString()).isEqualTo("invalid_address");
        assertThat(checksum.get("message").asString()).contains("EIP-55 checksum");
        assertThat(code(
                        merchant,
                        id,
                        "{\"address\":\"" + link.get("deposit_address").asString() + "\"}"))
                .isEqualTo("invalid_address");
        assertThat(code(merchant, id, "{\"transaction_id\":\"nope\"}")).isEqualTo("validation_failed");
        assertThat(code(merchant, id, "{\"amount\":1,\"reason\":\"gift\"}")).isEqualTo("validation_failed");
        assertThat(code(merchant, id, "[1]")).isEqualTo("invalid_request");
        assertThat(code(merchant, "not-a-uuid", "{}")).isEqualTo("invalid_id");
        assertThat(refundRefused(merchant, id, "{\"transaction_id\":\"" + UUID.randomUUID() + "\"}", 404)
                        .get("message")
                        .asString())
                .isEqualTo("Transaction not found for this link");
        // Upper case carries no checksum either, and is accepted.
        String upper = "0x" + ALICE.substring(2).toUpperCase(Locale.ROOT);
        assertThat(refundOk(merchant, id, "{\"amount\":1,\"address\":\"" + upper + "\"}")
                        .get("to_address")
                        .asString())
                .isEqualTo(ALICE);
        assertThat(eventTypes(id)).containsExactly("payment.created", "payment.completed", "transfer.initiated");
    }

    @Test
    void anotherMerchantOrModeGetsA404AndALinkWithoutADepositAddressA409() {
        MerchantIdentity owner = merchantWithKey();
        String id = newLink(owner, "10", 1).get("id").asString();
        pay(id, "10", ALICE);

        for (MerchantIdentity other :
                new MerchantIdentity[] {merchantWithKey(), new MerchantIdentity(owner.merchantId(), Mode.LIVE)}) {
            assertThat(refundRefused(other, id, "{}", 404).get("message").asString())
                    .isEqualTo("Payment link not found");
            refundsAs(other, id).expectStatus().isNotFound();
        }
        assertThat(refunds(owner, id, "").get("data")).isEmpty();

        MerchantIdentity withoutKey = newMerchant();
        String unpayable = createOk(withoutKey, "{\"payment_name\":\"Hat\",\"amount\":1,\"currency\":\"USDC\"}")
                .get("id")
                .asString();
        assertThat(refundRefused(withoutKey, unpayable, "{\"address\":\"" + ALICE + "\"}", 409)
                        .get("code")
                        .asString())
                .isEqualTo("no_deposit_address");
        assertThat(read(get(owner, "/payment_links/" + id + "/refunds?limit=101")
                                .expectStatus()
                                .isBadRequest())
                        .get("errors")
                        .get(0)
                        .get("field")
                        .asString())
                .isEqualTo("limit");
    }

    @Test
    void theSameIdempotencyKeyAnswersTheFirstRefundAndMakesNoOther() {
        MerchantIdentity merchant = merchantWithKey();
        String id = newLink(merchant, "10", 1).get("id").asString();
        pay(id, "10", ALICE);
        String key = UUID.randomUUID().toString();

        String first = withKey(merchant, id, key, "{\"amount\":2}")
                .expectStatus()
                .isCreated()
                .expectBody(String.class)
                .returnResult()
                .getResponseBody();
        String again = withKey(merchant, id, key, "{\"amount\":2}")
                .expectStatus()
                .isCreated()
                .expectBody(String.class)
                .returnResult()
                .getResponseBody();
        assertThat(again).isEqualTo(first);
        assertThat(refunds(merchant, id, "").get("data")).hasSize(1);
        assertThat(read(withKey(merchant, id, key, "{\"amount\":3}")
                                .expectStatus()
                                .isEqualTo(409))
                        .get("code")
                        .asString())
                .isEqualTo("idempotency_key_reused");
        assertThat(eventTypes(id)).containsExactly("payment.created", "payment.completed", "transfer.initiated");
        // A failed request stores nothing: the key is free for the corrected one.
        String retried = UUID.randomUUID().toString();
        withKey(merchant, id, retried, "{\"amount\":20}").expectStatus().isEqualTo(409);
        withKey(merchant, id, retried, "{\"amount\":20}").expectStatus().isEqualTo(409);
    }

    private String code(MerchantIdentity merchant, String id, String body) {
        return read(refund(merchant, id, body).expectStatus().isBadRequest())
                .get("code")
                .asString();
    }

    private org.springframework.test.web.reactive.server.WebTestClient.ResponseSpec withKey(
            MerchantIdentity merchant, String id, String key, String body) {
        return as(merchant, HttpMethod.POST, "/payment_links/" + id + "/refunds")
                .header("Idempotency-Key", key)
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(body)
                .exchange();
    }
}
