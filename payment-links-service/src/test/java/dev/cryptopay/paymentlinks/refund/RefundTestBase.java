package dev.cryptopay.paymentlinks.refund;

import dev.cryptopay.auth.internal.MerchantIdentity;
import dev.cryptopay.paymentlinks.PaymentLinksTestBase;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.List;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.HttpMethod;
import org.springframework.r2dbc.core.DatabaseClient;
import tools.jackson.databind.JsonNode;

/**
 * Shortcuts for refund and outgoing-transfer tests: links of a merchant with a receiving key, payments reported as
 * the chain watcher reports them, the link's events as written to the outbox.
 */
abstract class RefundTestBase extends PaymentLinksTestBase {

    /** Customers' addresses (the dev chain's accounts 1-3), in EIP-55 form. */
    static final String ALICE = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";

    static final String BOB = "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC";
    static final String CAROL = "0x90F79bf6EB2c4f870365E785982E1f101E93b906";

    private static final SecureRandom RANDOM = new SecureRandom();

    @Autowired
    DatabaseClient database;

    /** A transaction hash no other test uses ((network, tx_hash, log_index) is unique across the shared database). */
    static String newHash() {
        byte[] bytes = new byte[32];
        RANDOM.nextBytes(bytes);
        return "0x" + HexFormat.of().formatHex(bytes);
    }

    /** A USDC link of {@code amount} with {@code maxUses}; answers its data (with its deposit address). */
    JsonNode newLink(MerchantIdentity merchant, String amount, int maxUses) {
        return createOk(
                merchant,
                "{\"payment_name\":\"Boots\",\"amount\":" + amount + ",\"currency\":\"USDC\",\"max_uses\":" + maxUses
                        + "}");
    }

    /** Reports a confirmed payment of {@code amount} of {@code token} from {@code payer}; answers the transaction. */
    JsonNode pay(String linkId, String amount, String payer, String token, String fiat) {
        String hash = newHash();
        return read(reportTransaction(
                                linkId,
                                "{\"network\":\"Local dev chain\",\"tx_hash\":\"" + hash + "\","
                                        + transfer(token == null ? -1 : 0, token) + ",\"payer_address\":\"" + payer
                                        + "\",\"crypto_amount\":" + amount
                                        + (fiat == null ? "" : ",\"fiat_amount\":" + fiat)
                                        + ",\"status\":\"confirmed\",\"confirmations\":12}")
                        .expectStatus()
                        .isCreated())
                .get("data")
                .get("transaction");
    }

    JsonNode pay(String linkId, String amount, String payer) {
        return pay(linkId, amount, payer, TEST_USDC, null);
    }

    JsonNode link(MerchantIdentity merchant, String id) {
        return read(get(merchant, "/payment_links/" + id).expectStatus().isOk()).get("data");
    }

    /** Asks for a refund that must be created; answers it. */
    JsonNode refundOk(MerchantIdentity merchant, String linkId, String body) {
        return read(refund(merchant, linkId, body).expectStatus().isCreated()).get("data");
    }

    /** Asks for a refund that must be refused with {@code status}; answers the problem. */
    JsonNode refundRefused(MerchantIdentity merchant, String linkId, String body, int status) {
        return read(refund(merchant, linkId, body).expectStatus().isEqualTo(status));
    }

    JsonNode refunds(MerchantIdentity merchant, String linkId, String query) {
        return read(get(merchant, "/payment_links/" + linkId + "/refunds" + query)
                        .expectStatus()
                        .isOk())
                .get("data");
    }

    /** Reports an outgoing transfer that must be answered {@code status}; answers the body. */
    JsonNode outgoingReport(String linkId, String body, int status) {
        return read(reportOutgoing(linkId, body).expectStatus().isEqualTo(status));
    }

    /** The link's outbox events in order, each as its whole payload. */
    List<JsonNode> events(String linkId) {
        return database.sql("SELECT payload FROM outbox_event WHERE aggregate_id = :id ORDER BY position")
                .bind("id", linkId)
                .map(row -> json.readTree(row.get("payload", String.class)))
                .all()
                .collectList()
                .block();
    }

    List<String> eventTypes(String linkId) {
        return events(linkId).stream()
                .map(event -> event.get("type").asString())
                .toList();
    }

    /** The data of the link's last event of {@code type}. */
    JsonNode lastEvent(String linkId, String type) {
        List<JsonNode> of = events(linkId).stream()
                .filter(event -> event.get("type").asString().equals(type))
                .toList();
        return of.get(of.size() - 1).get("data");
    }

    /** The GET of the link's refunds as another merchant or mode would send it. */
    org.springframework.test.web.reactive.server.WebTestClient.ResponseSpec refundsAs(
            MerchantIdentity merchant, String linkId) {
        return as(merchant, HttpMethod.GET, "/payment_links/" + linkId + "/refunds")
                .exchange();
    }
}
