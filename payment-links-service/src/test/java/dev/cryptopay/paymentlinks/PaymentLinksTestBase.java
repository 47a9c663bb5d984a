package dev.cryptopay.paymentlinks;

import dev.cryptopay.auth.internal.MerchantIdentity;
import dev.cryptopay.paymentlinks.receiving.TestKeys;
import dev.cryptopay.testsupport.service.ServiceTest;
import dev.cryptopay.testsupport.service.ServiceTestBase;
import java.util.Map;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.WebTestClient;
import tools.jackson.databind.JsonNode;

/**
 * The running payment-links service for all route tests (see {@link ServiceTest}), with the expiry sweep off and a
 * fast outbox relay, plus shortcuts for the routes most tests call.
 */
@ServiceTest(
        database = "payment_links",
        properties = {
            "payment-links.expiry-sweep-enabled=false",
            "payment-links.checkout-url=https://pay.test",
            "outbox.poll-interval=50ms",
            // Checkout streams: quick polls and heartbeats keep stream tests short; a small cap lets a test reach it.
            "payment-links.checkout.poll-interval=200ms",
            "payment-links.checkout.heartbeat-interval=1s",
            "payment-links.checkout.max-streams=3",
            // An explorer for the test network, so a paid checkout's receipt links its transaction.
            "payment-links.checkout.explorers.31337=https://explorer.test"
        })
public abstract class PaymentLinksTestBase extends ServiceTestBase {

    /** The test network's USDC (application.yml), lower case as a chain watcher reports a transfer's token. */
    protected static final String TEST_USDC = "0xe7f1725e7734ce288f8367e1bb143e90bb3f0512";
    /** The test network's USDT. */
    protected static final String TEST_USDT = "0x9fe46736679d2d9a65f0992f2272de9f3c7fa6e0";

    /**
     * The members that name a transfer in a report, as a chain watcher writes them after {@code tx_hash}:
     * {@code "log_index":<index>,"token_contract":<token or null>} (null: the native coin, with log index -1).
     */
    protected static String transfer(int logIndex, String tokenContract) {
        return "\"log_index\":" + logIndex + ",\"token_contract\":"
                + (tokenContract == null ? "null" : "\"" + tokenContract + "\"");
    }

    /** A new merchant whose receiving key is registered, so its links get deposit addresses. */
    protected MerchantIdentity merchantWithKey() {
        MerchantIdentity merchant = newMerchant();
        as(merchant, HttpMethod.PUT, "/payment_links/receiving_key")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue("{\"extended_public_key\":\"" + TestKeys.wallet().xpub() + "\"}")
                .exchange()
                .expectStatus()
                .isCreated();
        return merchant;
    }

    protected WebTestClient.ResponseSpec create(MerchantIdentity merchant, String body) {
        return as(merchant, HttpMethod.POST, "/payment_links")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(body)
                .exchange();
    }

    /** Creates a link and answers its {@code data} object. */
    protected JsonNode createOk(MerchantIdentity merchant, String body) {
        return read(create(merchant, body).expectStatus().isCreated()).get("data");
    }

    protected JsonNode createOk(MerchantIdentity merchant, Map<String, Object> body) {
        return createOk(merchant, json.writeValueAsString(body));
    }

    protected WebTestClient.ResponseSpec get(MerchantIdentity merchant, String uri) {
        return as(merchant, HttpMethod.GET, uri).exchange();
    }

    protected WebTestClient.ResponseSpec delete(MerchantIdentity merchant, String uri) {
        return as(merchant, HttpMethod.DELETE, uri).exchange();
    }

    /** Asks for a refund of the link, as the merchant does through the gateway. */
    protected WebTestClient.ResponseSpec refund(MerchantIdentity merchant, String linkId, String body) {
        return as(merchant, HttpMethod.POST, "/payment_links/" + linkId + "/refunds")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(body)
                .exchange();
    }

    /** Reports a transfer out of the link's deposit address, as the chain watcher does. */
    protected WebTestClient.ResponseSpec reportOutgoing(String linkId, String body) {
        return asChainWatcher(HttpMethod.POST, "/internal/payment_links/" + linkId + "/outgoing_transfers")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(body)
                .exchange();
    }

    /**
     * The body of an outgoing-transfer report of {@code amount} of the test network's USDC (log index 0) from
     * {@code from} to {@code to}.
     */
    protected static String outgoing(String hash, String from, String to, String amount, String status) {
        return "{\"network\":\"Local dev chain\",\"tx_hash\":\"" + hash + "\"," + transfer(0, TEST_USDC)
                + ",\"from_address\":\"" + from + "\",\"to_address\":\"" + to + "\",\"crypto_amount\":" + amount
                + ",\"status\":\"" + status + "\",\"confirmations\":" + ("pending".equals(status) ? 1 : 12)
                + ",\"required_confirmations\":12}";
    }

    /** Reports a transaction through the internal route, as the chain watcher does (its own token, no merchant). */
    protected WebTestClient.ResponseSpec reportTransaction(String linkId, String body) {
        return asChainWatcher(HttpMethod.POST, "/internal/payment_links/" + linkId + "/transactions")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(body)
                .exchange();
    }
}
