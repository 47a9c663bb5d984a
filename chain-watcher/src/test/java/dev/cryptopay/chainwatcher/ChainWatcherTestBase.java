package dev.cryptopay.chainwatcher;

import dev.cryptopay.chainwatcher.scan.ChainScanners;
import dev.cryptopay.testsupport.TestKafka;
import dev.cryptopay.testsupport.chain.DevChain;
import dev.cryptopay.testsupport.chain.DevPriceFeeds;
import dev.cryptopay.testsupport.chain.DevTokens;
import dev.cryptopay.testsupport.service.ServiceTest;
import dev.cryptopay.testsupport.service.ServiceTestBase;
import dev.cryptopay.testsupport.webhook.WebhookReceiver;
import dev.cryptopay.testsupport.webhook.WebhookReceiver.Received;
import java.math.BigInteger;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.web3j.crypto.Keys;
import tools.jackson.databind.JsonNode;

/**
 * The chain watcher against a real anvil node ({@link DevChain}), the real broker and database. Scanning is driven by
 * the tests ({@link ChainScanners#scanOnce()}); reports go to recording HTTP servers standing in for
 * payment-links-service's and subscriptions-service's internal routes. The dev chain's subscription contract is
 * followed. Tests stay independent by using fresh deposit addresses and link ids, and fresh plans.
 */
@ServiceTest(
        database = "chain_watcher",
        properties = {
            "chain-watcher.scan-enabled=false",
            "chain-watcher.late-window=1h",
            "spring.kafka.consumer.properties.metadata.max.age.ms=1000"
        })
public abstract class ChainWatcherTestBase extends ServiceTestBase {

    protected static final DevChain CHAIN = DevChain.shared();
    protected static final WebhookReceiver PAYMENT_LINKS = new WebhookReceiver();
    protected static final WebhookReceiver SUBSCRIPTIONS = new WebhookReceiver();
    /** How far before the cursor a new address is looked for (chain-watcher.networks[0].look-back-blocks). */
    protected static final int LOOK_BACK_BLOCKS = 20;

    private static final java.security.SecureRandom RANDOM = new java.security.SecureRandom();

    @DynamicPropertySource
    static void chain(DynamicPropertyRegistry registry) {
        // A list binds from one property source only, so the whole entry is here.
        registry.add("chain-watcher.networks[0].name", () -> "Local dev chain");
        registry.add("chain-watcher.networks[0].chain-id", () -> 31337);
        registry.add("chain-watcher.networks[0].rpc-url", CHAIN::rpcUrl);
        registry.add("chain-watcher.networks[0].confirmations", () -> 3);
        registry.add("chain-watcher.networks[0].reorg-window", () -> 16);
        registry.add("chain-watcher.networks[0].start-blocks-back", () -> 20);
        registry.add("chain-watcher.networks[0].look-back-blocks", () -> LOOK_BACK_BLOCKS);
        for (DevTokens token : DevTokens.values()) {
            String entry = "chain-watcher.networks[0].tokens[" + token.ordinal() + "].";
            registry.add(entry + "address", token::address);
            registry.add(entry + "decimals", token::decimals);
            registry.add(entry + "symbol", token::code);
            DevPriceFeeds.of(token).ifPresent(feed -> registry.add(entry + "price-feed", feed::address));
            registry.add(entry + "usd-stablecoin", () -> DevPriceFeeds.of(token).isEmpty());
        }
        registry.add("chain-watcher.networks[0].native-price-feed", DevPriceFeeds.ETH_USD::address);
        registry.add("chain-watcher.networks[0].price-max-age", () -> "3650d");
        registry.add("chain-watcher.networks[0].subscription-contract", () -> DevChain.SUBSCRIPTION_CONTRACT);
        registry.add("chain-watcher.payment-links-url", () -> PAYMENT_LINKS.url(""));
        registry.add("chain-watcher.subscriptions-url", () -> SUBSCRIPTIONS.url(""));
    }

    @Autowired
    protected ChainScanners scanners;

    @Autowired
    protected DatabaseClient database;

    /** A fresh address nobody else pays (lower-case, as the watcher stores it). */
    protected static String freshAddress() {
        byte[] address = new byte[20];
        RANDOM.nextBytes(address);
        return "0x" + java.util.HexFormat.of().formatHex(address);
    }

    /** Announces a link paid to {@code deposit} the way payment-links-service does, and waits until it is watched. */
    protected UUID announce(String deposit, String token, int decimals, String baseUnits, Instant expiresAt) {
        return announce(deposit, token, decimals, baseUnits, expiresAt, clock.instant());
    }

    /** As {@link #announce}, for a link created at {@code createdAt} (its event's {@code created_at}). */
    protected UUID announce(
            String deposit, String token, int decimals, String baseUnits, Instant expiresAt, Instant createdAt) {
        UUID linkId = UUID.randomUUID();
        publish(linkId, "payment.created", created(linkId, deposit, token, decimals, baseUnits, expiresAt), createdAt);
        await("link " + linkId + " watched", () -> watched(linkId));
        return linkId;
    }

    /** The {@code data} of the {@code payment.created} event of a link paid to {@code deposit}. */
    protected static Map<String, Object> created(
            UUID linkId, String deposit, String token, int decimals, String baseUnits, Instant expiresAt) {
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("id", linkId.toString());
        data.put("status", "pending");
        data.put("network", "Local dev chain");
        data.put("deposit_address", Keys.toChecksumAddress(deposit));
        data.put("chain_id", 31337);
        data.put("token_contract", token);
        data.put("decimals", decimals);
        data.put("amount_base_units", baseUnits);
        data.put("expires_at", expiresAt.toString());
        return data;
    }

    protected void publish(UUID linkId, String type, Map<String, Object> data) {
        publish(linkId, type, data, clock.instant());
    }

    protected void publish(UUID linkId, String type, Map<String, Object> data, Instant createdAt) {
        publish("payment-links.events", linkId, type, data, createdAt);
    }

    /** As {@link #publish(UUID, String, Map, Instant)}, on another topic. */
    protected void publish(String topic, UUID linkId, String type, Map<String, Object> data, Instant createdAt) {
        Map<String, Object> event = Map.of(
                "id",
                UUID.randomUUID().toString(),
                "type",
                type,
                "created_at",
                createdAt.toString(),
                "merchant_id",
                UUID.randomUUID().toString(),
                "mode",
                "test",
                "data",
                data);
        TestKafka.send(topic, linkId.toString(), json.writeValueAsString(event));
    }

    protected boolean watched(UUID linkId) {
        return Boolean.TRUE.equals(database.sql("SELECT count(*) AS n FROM watched_address WHERE payment_link_id = :id")
                .bind("id", linkId)
                .map(row -> row.get("n", Long.class) > 0)
                .one()
                .block());
    }

    /** Scans until every chain is at its head. */
    protected void scan() {
        for (int passes = 0; passes < 100; passes++) {
            if (Boolean.TRUE.equals(scanners.scanOnce().block())) {
                return;
            }
        }
        throw new AssertionError("the watcher did not reach the head in 100 passes");
    }

    /** The reports of transfers out of a link's deposit address payment-links-service received, in order, as JSON. */
    protected List<JsonNode> outgoingReports(UUID linkId) {
        return PAYMENT_LINKS.received().stream()
                .filter(call -> call.path().equals("/internal/payment_links/" + linkId + "/outgoing_transfers"))
                .map(Received::bodyText)
                .map(json::readTree)
                .toList();
    }

    /** The reports payment-links-service received for a link, in order, as JSON. */
    protected List<JsonNode> reports(UUID linkId) {
        return PAYMENT_LINKS.received().stream()
                .filter(call -> call.path().equals("/internal/payment_links/" + linkId + "/transactions"))
                .map(Received::bodyText)
                .map(json::readTree)
                .toList();
    }

    protected static BigInteger units(String amount, int decimals) {
        return new java.math.BigDecimal(amount).movePointRight(decimals).toBigIntegerExact();
    }
}
