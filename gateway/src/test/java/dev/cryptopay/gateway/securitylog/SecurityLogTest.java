package dev.cryptopay.gateway.securitylog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cryptopay.auth.Mode;
import dev.cryptopay.gateway.support.GatewayTestBase;
import dev.cryptopay.gateway.support.MerchantKey;
import dev.cryptopay.gateway.support.SignedRequest;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.test.web.reactive.server.WebTestClient;
import tools.jackson.databind.JsonNode;

/**
 * The security log: every change to the account's keys, the receiving key, webhook endpoints and production access,
 * and the first use of a new key, recorded with the calling key and the client's address as the requests pass the
 * gateway, listed to the merchant newest first, never for another merchant or mode, and never editable.
 */
class SecurityLogTest extends GatewayTestBase {

    @Autowired
    private DatabaseClient database;

    @Test
    void recordsEveryChangeWithTheKeyAndTheClientAddressNewestFirst() {
        MerchantKey owner = admin.newMerchantKey();
        UUID endpoint = UUID.randomUUID();

        JsonNode created = json(send("POST", "/account/keys", "{\"scopes\":[\"read\"]}", owner)
                .expectStatus()
                .isCreated());
        MerchantKey reader = MerchantKey.created(owner.merchantId(), created);
        send("GET", "/payment_links", null, reader).expectStatus().isOk();
        send("GET", "/payment_links", null, reader).expectStatus().isOk();
        send("PUT", "/payment_links/receiving_key", "{\"xpub\":\"x\"}", owner)
                .expectStatus()
                .isOk();
        send("POST", "/webhook-endpoints", "{}", owner).expectStatus().isOk();
        send("POST", "/webhook-endpoints/" + endpoint + "/rotate-secret", null, owner)
                .expectStatus()
                .isOk();
        send("POST", "/webhook-endpoints/" + endpoint + "/enable", null, owner)
                .expectStatus()
                .isOk();
        send("DELETE", "/webhook-endpoints/" + endpoint, null, owner)
                .expectStatus()
                .isOk();
        send(
                        "POST",
                        "/account/production_access",
                        JSON.writeValueAsString(Map.of("company", "Acme", "use_case", "Coffee")),
                        owner)
                .expectStatus()
                .isCreated();
        send("DELETE", "/account/keys/" + created.get("id").asString(), null, owner)
                .expectStatus()
                .isNoContent();
        // Refused or read-only requests change nothing and are not entries.
        send("PUT", "/payment_links/receiving_key", "{}", reader).expectStatus().isUnauthorized();
        send("GET", "/webhook-endpoints", null, owner).expectStatus().isOk();

        JsonNode page = json(send("GET", "/account/security_events", null, owner)
                .expectStatus()
                .isOk());
        List<String> actions = new ArrayList<>();
        page.get("events").forEach(event -> actions.add(event.get("action").asString()));
        assertThat(actions)
                .containsExactly(
                        "api_key.revoked",
                        "production_access.requested",
                        "webhook_endpoint.deleted",
                        "webhook_endpoint.enabled",
                        "webhook_endpoint.secret_rotated",
                        "webhook_endpoint.created",
                        "receiving_key.changed",
                        "api_key.first_used",
                        "api_key.created",
                        "api_key.first_used");
        assertThat(page.get("total").asLong()).isEqualTo(10);
        JsonNode revoked = page.at("/events/0");
        assertThat(revoked.get("target_id").asString())
                .isEqualTo(created.get("id").asString());
        assertThat(revoked.get("api_key_prefix").asString()).isEqualTo(owner.prefix());
        assertThat(revoked.get("client_address").asString()).isEqualTo("127.0.0.1");
        assertThat(revoked.get("created_at").asString()).isNotBlank();
        JsonNode readerFirstUse = page.at("/events/7");
        assertThat(readerFirstUse.get("api_key_prefix").asString()).isEqualTo(reader.prefix());
        assertThat(readerFirstUse.get("target_id").asString())
                .isEqualTo(created.get("id").asString());
        assertThat(page.at("/events/2/target_id").asString()).isEqualTo(endpoint.toString());
        assertThat(page.at("/events/9/api_key_prefix").asString()).isEqualTo(owner.prefix());

        // Another merchant, and the same merchant's live mode, see none of it.
        MerchantKey stranger = admin.newMerchantKey();
        JsonNode theirs = json(send("GET", "/account/security_events", null, stranger)
                .expectStatus()
                .isOk());
        assertThat(theirs.get("events")).hasSize(1);
        assertThat(theirs.at("/events/0/action").asString()).isEqualTo("api_key.first_used");
        MerchantKey live = admin.newKey(owner.merchantId(), Mode.LIVE, null);
        JsonNode liveLog = json(send("GET", "/account/security_events", null, live)
                .expectStatus()
                .isOk());
        assertThat(liveLog.get("events"))
                .allSatisfy(event -> assertThat(event.get("action").asString()).isEqualTo("api_key.first_used"));
    }

    @Test
    void theLogIsAppendOnlyAndReadableWithTheReadScope() {
        MerchantKey owner = admin.newMerchantKey();
        send("PUT", "/payment_links/receiving_key", "{}", owner).expectStatus().isOk();

        assertThatThrownBy(() -> database.sql("UPDATE security_event SET client_address = '10.0.0.1' WHERE key_id IN"
                                + " (SELECT id FROM api_key WHERE merchant_id = :merchant)")
                        .bind("merchant", owner.merchantId())
                        .fetch()
                        .rowsUpdated()
                        .block())
                .hasMessageContaining("append-only");
        assertThatThrownBy(() -> database.sql("DELETE FROM security_event WHERE merchant_id = :merchant")
                        .bind("merchant", owner.merchantId())
                        .fetch()
                        .rowsUpdated()
                        .block())
                .hasMessageContaining("append-only");

        JsonNode created = json(send("POST", "/account/keys", "{\"scopes\":[\"read\"]}", owner)
                .expectStatus()
                .isCreated());
        MerchantKey reader = MerchantKey.created(owner.merchantId(), created);
        JsonNode page = json(send("GET", "/account/security_events?page_size=2", null, reader)
                .expectStatus()
                .isOk());
        assertThat(page.get("events")).hasSize(2);
        assertThat(page.get("total_pages").asLong()).isEqualTo(2);
        assertThat(page.at("/events/0/client_address").asString()).isEqualTo("127.0.0.1");
        send("POST", "/account/security_events", "{}", owner).expectStatus().isNotFound();
    }

    private WebTestClient.ResponseSpec send(String method, String path, String body, MerchantKey key) {
        SignedRequest request = SignedRequest.of(method, path);
        if (body != null) {
            request = request.body(body);
        }
        return request.timestamp(Instant.now().toString()).send(client, baseUrl(), key);
    }
}
