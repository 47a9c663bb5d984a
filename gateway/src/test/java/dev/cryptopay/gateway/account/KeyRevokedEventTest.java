package dev.cryptopay.gateway.account;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cryptopay.auth.Mode;
import dev.cryptopay.gateway.support.GatewayTestBase;
import dev.cryptopay.gateway.support.MerchantKey;
import dev.cryptopay.gateway.support.SignedRequest;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.r2dbc.core.DatabaseClient;
import tools.jackson.databind.JsonNode;

/**
 * A revoked key is announced to its merchant as {@code account.key.revoked}, written in the revocation's own
 * transaction to the gateway's outbox (relayed to {@code gateway.events}, which webhook-service delivers from):
 * whoever revoked it, the merchant with another key or the operator, once.
 */
class KeyRevokedEventTest extends GatewayTestBase {

    @Autowired
    private DatabaseClient database;

    @Test
    void aKeyTheMerchantRevokesIsAnnouncedOnceWithTheKeyThatDidIt() {
        MerchantKey key = admin.newMerchantKey();
        MerchantKey other = admin.newKey(key.merchantId(), Mode.TEST, null);
        String callerId = idOf(key, key.prefix());
        String otherId = idOf(key, other.prefix());

        for (int i = 0; i < 2; i++) {
            SignedRequest.of("DELETE", "/account/keys/" + otherId)
                    .timestamp(Instant.now().toString())
                    .send(client, baseUrl(), key)
                    .expectStatus()
                    .isNoContent();
        }

        List<JsonNode> events = events(key.merchantId());
        assertThat(events).as("revoking it again announces nothing").hasSize(1);
        JsonNode event = events.get(0);
        assertThat(event.get("type").asString()).isEqualTo("account.key.revoked");
        assertThat(event.get("merchant_id").asString())
                .isEqualTo(key.merchantId().toString());
        assertThat(event.get("mode").asString()).isEqualTo("test");
        JsonNode data = event.get("data");
        assertThat(data.get("key_id").asString()).isEqualTo(otherId);
        assertThat(data.get("kind").asString()).isEqualTo("api_key");
        assertThat(data.get("display_prefix").asString()).isEqualTo(other.prefix());
        assertThat(data.get("scopes").values().stream().map(JsonNode::asString)).contains("payment_links", "account");
        assertThat(data.get("revoked_by_key_id").asString()).isEqualTo(callerId);
        assertThat(data.get("revoked_at").asString()).isNotBlank();
    }

    @Test
    void aPublishableKeyAndAKeyTheOperatorRevokesAreAnnouncedToo() {
        MerchantKey key = admin.newMerchantKey();
        admin.newPublishableKey(key.merchantId(), Mode.TEST);
        JsonNode publishable = json(SignedRequest.of("GET", "/account/keys")
                        .send(client, baseUrl(), key)
                        .expectStatus()
                        .isOk())
                .at("/publishable_keys/0");
        SignedRequest.of("DELETE", "/account/keys/" + publishable.get("id").asString())
                .send(client, baseUrl(), key)
                .expectStatus()
                .isNoContent();

        MerchantKey operatorRevokes = admin.newKey(key.merchantId(), Mode.LIVE, null);
        admin.revoke(operatorRevokes.apiKey());
        admin.revoke(operatorRevokes.apiKey());

        List<JsonNode> events = events(key.merchantId());
        assertThat(events).hasSize(2);
        JsonNode first = events.get(0).get("data");
        assertThat(first.get("kind").asString()).isEqualTo("publishable_key");
        assertThat(first.get("key_id").asString())
                .isEqualTo(publishable.get("id").asString());
        assertThat(first.get("scopes").isEmpty()).isTrue();
        assertThat(first.get("revoked_by_key_id").asString()).isEqualTo(idOf(key, key.prefix()));
        JsonNode second = events.get(1);
        assertThat(second.get("mode").asString())
                .as("announced in the revoked key's mode")
                .isEqualTo("live");
        assertThat(second.get("data").get("display_prefix").asString()).isEqualTo(operatorRevokes.prefix());
        assertThat(second.get("data").get("revoked_by_key_id").isNull())
                .as("the operator did it")
                .isTrue();
    }

    /** The merchant's account.key.revoked events in the outbox, in order, with the topic they go to. */
    private List<JsonNode> events(UUID merchantId) {
        return database.sql("SELECT topic, payload FROM outbox_event WHERE record_key = :merchant"
                        + " AND event_type = 'account.key.revoked' ORDER BY position")
                .bind("merchant", merchantId.toString())
                .map(row -> {
                    assertThat(row.get("topic", String.class)).isEqualTo("gateway.events");
                    return JSON.readTree(row.get("payload", String.class));
                })
                .all()
                .collectList()
                .block();
    }

    /** The id of the merchant's key with this prefix, as the listing shows it. */
    private String idOf(MerchantKey caller, String prefix) {
        return json(SignedRequest.of("GET", "/account/keys?page_size=100")
                        .send(client, baseUrl(), caller)
                        .expectStatus()
                        .isOk())
                .get("keys")
                .values()
                .stream()
                .filter(k -> k.get("api_key_prefix").asString().equals(prefix))
                .map(k -> k.get("id").asString())
                .findFirst()
                .orElseThrow();
    }
}
