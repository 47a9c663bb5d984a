package dev.cryptopay.paymentlinks.receiving;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cryptopay.auth.Mode;
import dev.cryptopay.auth.internal.MerchantIdentity;
import dev.cryptopay.paymentlinks.PaymentLinksTestBase;
import dev.cryptopay.testsupport.TestKafka;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.test.web.reactive.server.WebTestClient;
import tools.jackson.databind.JsonNode;

/**
 * Registering a receiving key per mode and the deposit addresses new links get from it. The dev mnemonic's receiving
 * chain is used because its children are well-known accounts: a merchant's wallet would show the same addresses.
 */
class ReceivingKeyRoutesTest extends PaymentLinksTestBase {

    /** m/44'/60'/0'/0 of the public development mnemonic "test test … junk" (see src/test/resources/bip32). */
    static final String DEV_RECEIVING_CHAIN =
            "xpub6DyUKdwoLWmUJ4Tn9Bbsdtx7B5Ws18mEN19e5HT52ikE53FiUheSQXrZUNPovqfyKmw4579A1Mm3GXXKM39N64uooBfJ4tNAzFsEbodRTx4";

    static final List<String> DEV_ACCOUNTS = List.of(
            "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266",
            "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
            "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC");

    @Autowired
    DatabaseClient database;

    private static final String LINK = "{\"payment_name\":\"Tea\",\"amount\":2.5,\"currency\":\"USDC\"}";
    private static final String DEV_USDC = "0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512";

    @Test
    void newLinksArePaidToTheNextChildOfTheRegisteredKey() {
        MerchantIdentity merchant = newMerchant();
        readKey(merchant).expectStatus().isNotFound();
        JsonNode withoutKey = createOk(merchant, LINK);
        assertThat(withoutKey.has("deposit_address")).isFalse();
        assertThat(withoutKey.get("amount_base_units").asString()).isEqualTo("2500000");

        JsonNode registered =
                read(register(merchant, DEV_RECEIVING_CHAIN).expectStatus().isCreated());
        assertThat(registered.get("message").asString()).isEqualTo("Receiving key registered");
        JsonNode key = registered.get("data");
        assertThat(key.get("extended_public_key").asString()).isEqualTo(DEV_RECEIVING_CHAIN);
        assertThat(key.get("key_network").asString()).isEqualTo("mainnet");
        assertThat(key.get("depth").asInt()).isEqualTo(4);
        assertThat(key.get("first_address").asString()).isEqualTo(DEV_ACCOUNTS.get(0));
        assertThat(key.get("addresses_issued").asLong()).isZero();

        List<JsonNode> links = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            links.add(createOk(merchant, LINK));
        }

        assertThat(links)
                .extracting(link -> link.get("deposit_address").asString())
                .containsExactlyElementsOf(DEV_ACCOUNTS);
        JsonNode first = links.get(0);
        assertThat(first.get("network").asString()).isEqualTo("Local dev chain");
        assertThat(first.get("chain_id").asLong()).isEqualTo(31337);
        assertThat(first.get("token_contract").asString()).isEqualTo(DEV_USDC);
        assertThat(first.get("payment_uri").asString())
                .isEqualTo(
                        "ethereum:" + DEV_USDC + "@31337/transfer?address=" + DEV_ACCOUNTS.get(0) + "&uint256=2500000");
        JsonNode again = read(get(merchant, "/payment_links/" + first.get("id").asString())
                        .expectStatus()
                        .isOk())
                .get("data");
        assertThat(again.get("deposit_address").asString()).isEqualTo(DEV_ACCOUNTS.get(0));
        assertThat(read(readKey(merchant).expectStatus().isOk())
                        .get("data")
                        .get("addresses_issued")
                        .asLong())
                .isEqualTo(3);

        // payment.created of the link without a key, account.receiving_key.updated, three payment.created.
        List<ConsumerRecord<String, String>> events = TestKafka.recordsWithKey(
                "payment-links.events", merchant.merchantId().toString(), 5);
        assertThat(json.readTree(events.get(1).value()).get("type").asString())
                .isEqualTo("account.receiving_key.updated");
        JsonNode created = json.readTree(events.get(4).value()).get("data");
        assertThat(created.get("id").asString())
                .isEqualTo(links.get(2).get("id").asString());
        assertThat(created.get("deposit_address").asString()).isEqualTo(DEV_ACCOUNTS.get(2));
    }

    @Test
    void aRefusedDuplicateLeavesItsAddressUnusedAndAnnouncesNothing() {
        MerchantIdentity merchant = newMerchant();
        TestKeys.Wallet wallet = TestKeys.wallet();
        register(merchant, wallet.xpub()).expectStatus().isCreated();
        String order = "{\"payment_name\":\"Tea\",\"amount\":2.5,\"currency\":\"USDC\",\"order_id\":\"o-1\"}";

        assertThat(createOk(merchant, order).get("deposit_address").asString()).isEqualTo(wallet.account(0));
        create(merchant, order).expectStatus().isEqualTo(409);
        // The index is taken by its own statement before the insert is refused: the refused create leaves the
        // second address unused, as a link never paid does (nothing points at it, nothing watches it).
        assertThat(createOk(merchant, LINK).get("deposit_address").asString()).isEqualTo(wallet.account(2));

        assertThat(database.sql("SELECT count(*) FROM outbox_event WHERE record_key = :merchant"
                                + " AND event_type = 'payment.created'")
                        .bind("merchant", merchant.merchantId().toString())
                        .map(row -> row.get(0, Long.class))
                        .one()
                        .block())
                .as("one payment.created per link made, none for the refused create")
                .isEqualTo(2);
        assertThat(database.sql("SELECT count(*) FROM payment_link WHERE merchant_id = :merchant")
                        .bind("merchant", merchant.merchantId())
                        .map(row -> row.get(0, Long.class))
                        .one()
                        .block())
                .isEqualTo(2);
    }

    @Test
    void aNativeCoinLinkGetsAValuePaymentUri() {
        MerchantIdentity merchant = newMerchant();
        TestKeys.Wallet wallet = TestKeys.wallet();
        register(merchant, wallet.xpub()).expectStatus().isCreated();
        JsonNode link = createOk(merchant, "{\"payment_name\":\"Gas\",\"amount\":0.25,\"currency\":\"ETH\"}");
        assertThat(link.has("token_contract")).isFalse();
        assertThat(link.get("amount_base_units").asString()).isEqualTo("250000000000000000");
        assertThat(link.get("payment_uri").asString())
                .isEqualTo("ethereum:" + wallet.account(0) + "@31337?value=250000000000000000");
    }

    @Test
    void replacingTheKeyMovesNewLinksToItAndReturningToAnOldKeyNeverReusesAnAddress() {
        MerchantIdentity merchant = newMerchant();
        TestKeys.Wallet first = TestKeys.wallet();
        TestKeys.Wallet second = TestKeys.wallet();
        register(merchant, first.xpub()).expectStatus().isCreated();
        assertThat(createOk(merchant, LINK).get("deposit_address").asString()).isEqualTo(first.account(0));
        JsonNode same = read(register(merchant, first.xpub()).expectStatus().isOk());
        assertThat(same.get("message").asString()).isEqualTo("Receiving key updated");
        assertThat(same.get("data").get("addresses_issued").asLong()).isEqualTo(1);

        register(merchant, second.xpub()).expectStatus().isOk();
        assertThat(createOk(merchant, LINK).get("deposit_address").asString()).isEqualTo(second.account(0));

        register(merchant, first.xpub()).expectStatus().isOk();
        assertThat(createOk(merchant, LINK).get("deposit_address").asString()).isEqualTo(first.account(1));
        // The same key written as tpub is the same key: it continues, it does not start over.
        register(merchant, TestKeys.asTpub(first.xpub())).expectStatus().isOk();
        assertThat(createOk(merchant, LINK).get("deposit_address").asString()).isEqualTo(first.account(2));
    }

    @Test
    void everyChangeOfTheCurrentKeyIsAnnouncedToTheMerchant() {
        MerchantIdentity merchant = newMerchant();
        TestKeys.Wallet first = TestKeys.wallet();
        TestKeys.Wallet second = TestKeys.wallet();
        register(merchant, first.xpub()).expectStatus().isCreated();
        register(merchant, first.xpub()).expectStatus().isOk(); // the current key again: nothing changes
        register(merchant, second.xpub()).expectStatus().isOk();

        List<JsonNode> events = database.sql("SELECT topic, payload FROM outbox_event WHERE record_key = :merchant"
                        + " AND event_type = 'account.receiving_key.updated' ORDER BY position")
                .bind("merchant", merchant.merchantId().toString())
                .map(row -> {
                    assertThat(row.get("topic", String.class)).isEqualTo("payment-links.events");
                    return json.readTree(row.get("payload", String.class));
                })
                .all()
                .collectList()
                .block();
        assertThat(events)
                .as("registering the current key again announces nothing")
                .hasSize(2);
        JsonNode firstKey = events.get(0).get("data");
        assertThat(events.get(0).get("mode").asString()).isEqualTo("test");
        assertThat(firstKey.get("extended_public_key").asString()).isEqualTo(first.xpub());
        assertThat(firstKey.get("first_address").asString()).isEqualTo(first.account(0));
        assertThat(firstKey.get("previous_fingerprint").isNull())
                .as("the mode's first key")
                .isTrue();
        assertThat(firstKey.get("previous_first_address").isNull()).isTrue();
        JsonNode replaced = events.get(1).get("data");
        assertThat(replaced.get("extended_public_key").asString()).isEqualTo(second.xpub());
        assertThat(replaced.get("first_address").asString()).isEqualTo(second.account(0));
        assertThat(replaced.get("previous_first_address").asString()).isEqualTo(first.account(0));
        assertThat(replaced.get("previous_fingerprint").asString())
                .isEqualTo(firstKey.get("fingerprint").asString());
    }

    @Test
    void aKeyBelongsToOneMerchantAndModeAndModesAreSeparate() {
        UUID merchantId = UUID.randomUUID();
        MerchantIdentity test = new MerchantIdentity(merchantId, Mode.TEST);
        MerchantIdentity live = new MerchantIdentity(merchantId, Mode.LIVE);
        TestKeys.Wallet wallet = TestKeys.wallet();
        register(test, wallet.xpub()).expectStatus().isCreated();

        readKey(live).expectStatus().isNotFound();
        readKey(newMerchant()).expectStatus().isNotFound();
        JsonNode taken = read(register(live, wallet.xpub()).expectStatus().isEqualTo(409));
        assertThat(taken.get("code").asString()).isEqualTo("receiving_key_in_use");
        register(newMerchant(), TestKeys.asTpub(wallet.xpub())).expectStatus().isEqualTo(409);
        register(live, TestKeys.wallet().xpub()).expectStatus().isCreated();
        assertThat(read(readKey(test).expectStatus().isOk())
                        .get("data")
                        .get("extended_public_key")
                        .asString())
                .isEqualTo(wallet.xpub());
    }

    @Test
    void refusesWhatIsNotAUsableExtendedPublicKey() {
        MerchantIdentity merchant = newMerchant();
        String xprv =
                "xprv9s21ZrQH143K3QTDL4LXw2F7HEK3wJUD2nW2nRk4stbPy6cq3jPPqjiChkVvvNKmPGJxWUtg6LnF5kejMRNNU3TGtRBeJgk33yuGBxrMPHi";
        assertInvalid(merchant, key(xprv), "extended private key");
        String xpub = TestKeys.wallet().xpub();
        assertInvalid(
                merchant, key(xpub.substring(0, xpub.length() - 1) + (xpub.endsWith("1") ? "2" : "1")), "checksum");
        assertInvalid(merchant, key("0x70997970C51812dc3A010C7d01b50e0d17dc79C8"), "not Base58");
        assertInvalid(merchant, "{}", "extended_public_key is required");
        assertInvalid(merchant, "{\"extended_public_key\":\"" + xpub + "\",\"x\":1}", "Unknown field: x");
        assertInvalid(merchant, key("x".repeat(201)), "extended_public_key");
        readKey(merchant).expectStatus().isNotFound();

        String tpub = TestKeys.asTpub(xpub);
        MerchantIdentity live = new MerchantIdentity(UUID.randomUUID(), Mode.LIVE);
        assertInvalid(live, key(tpub), "Live mode needs a mainnet key");
        readKey(live).expectStatus().isNotFound();
        JsonNode accepted =
                read(register(merchant, tpub).expectStatus().isCreated()).get("data");
        assertThat(accepted.get("key_network").asString()).isEqualTo("testnet");
        assertThat(accepted.get("extended_public_key").asString()).isEqualTo(tpub);
    }

    @Test
    void concurrentCreatesTakeDistinctAddresses() throws Exception {
        MerchantIdentity merchant = newMerchant();
        TestKeys.Wallet wallet = TestKeys.wallet();
        register(merchant, wallet.xpub()).expectStatus().isCreated();
        int count = 16;
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Future<String>> results = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                results.add(pool.submit(
                        () -> createOk(merchant, LINK).get("deposit_address").asString()));
            }
            Set<String> addresses = new HashSet<>();
            for (Future<String> result : results) {
                addresses.add(result.get());
            }
            Set<String> expected = new HashSet<>();
            for (int i = 0; i < count; i++) {
                expected.add(wallet.account(i));
            }
            assertThat(addresses).isEqualTo(expected);
        } finally {
            pool.shutdownNow();
        }
    }

    private void assertInvalid(MerchantIdentity merchant, String body, String message) {
        JsonNode error = read(as(merchant, HttpMethod.PUT, "/payment_links/receiving_key")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(body)
                .exchange()
                .expectStatus()
                .isBadRequest());
        assertThat(error.get("message").asString()).contains(message);
    }

    private WebTestClient.ResponseSpec register(MerchantIdentity merchant, String key) {
        return as(merchant, HttpMethod.PUT, "/payment_links/receiving_key")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(key(key))
                .exchange();
    }

    private WebTestClient.ResponseSpec readKey(MerchantIdentity merchant) {
        return as(merchant, HttpMethod.GET, "/payment_links/receiving_key").exchange();
    }

    private static String key(String text) {
        return "{\"extended_public_key\":\"" + text + "\"}";
    }
}
