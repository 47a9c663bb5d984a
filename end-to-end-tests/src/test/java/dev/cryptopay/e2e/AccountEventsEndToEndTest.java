package dev.cryptopay.e2e;

import static dev.cryptopay.e2e.SuiteStack.JSON;
import static dev.cryptopay.e2e.SuiteStack.await;
import static dev.cryptopay.e2e.SuiteStack.register;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cryptopay.auth.Mode;
import dev.cryptopay.deploy.LocalStack;
import dev.cryptopay.deploy.SandboxCredentials;
import dev.cryptopay.deploy.SignedClient;
import dev.cryptopay.testsupport.webhook.WebhookReceiver;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * The two account changes a merchant must hear of even when it did not make them reach its endpoint through the
 * running suite: a revoked key (written by the gateway, relayed from its outbox through Kafka topic
 * {@code gateway.events}) and a replaced receiving key (written by payment-links-service).
 */
class AccountEventsEndToEndTest {

    /** m/44'/60'/0'/0 of the public development mnemonic "test test … junk". */
    private static final String DEV_RECEIVING_CHAIN =
            "xpub6DyUKdwoLWmUJ4Tn9Bbsdtx7B5Ws18mEN19e5HT52ikE53FiUheSQXrZUNPovqfyKmw4579A1Mm3GXXKM39N64uooBfJ4tNAzFsEbodRTx4";

    @Test
    void aRevokedKeyAndAReplacedReceivingKeyAreDeliveredAsWebhooks() {
        LocalStack stack = SuiteStack.get();
        SandboxCredentials merchant = stack.newMerchant("Account Events Shop", Mode.TEST);
        SignedClient client = new SignedClient(stack.baseUrl(), merchant);
        try (WebhookReceiver receiver = new WebhookReceiver()) {
            register(client, receiver.url(), List.of("account.key.revoked", "account.receiving_key.updated"));

            HttpResponse<String> created = client.post("/account/keys", "{\"mode\":\"test\",\"scopes\":[\"read\"]}");
            assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
            String keyId = JSON.readTree(created.body()).get("id").asString();
            assertThat(client.delete("/account/keys/" + keyId).statusCode()).isEqualTo(204);

            HttpResponse<String> registered = client.send(
                    "PUT", "/payment_links/receiving_key", "{\"extended_public_key\":\"" + DEV_RECEIVING_CHAIN + "\"}");
            assertThat(registered.statusCode()).as(registered.body()).isIn(200, 201);

            await(
                    "both account events delivered",
                    Duration.ofMinutes(1),
                    () -> types(receiver).size() >= 2);
            assertThat(types(receiver))
                    .containsExactlyInAnyOrder("account.key.revoked", "account.receiving_key.updated");
            for (WebhookReceiver.Received delivery : receiver.received()) {
                JsonNode event = JSON.readTree(delivery.body());
                JsonNode data = event.get("data");
                assertThat(event.get("livemode").asBoolean()).isFalse();
                if (event.get("type").asString().equals("account.key.revoked")) {
                    assertThat(data.get("key_id").asString()).isEqualTo(keyId);
                    assertThat(data.get("kind").asString()).isEqualTo("api_key");
                    assertThat(data.get("revoked_by_key_id").isNull()).isFalse();
                } else {
                    assertThat(data.get("extended_public_key").asString()).isEqualTo(DEV_RECEIVING_CHAIN);
                    assertThat(data.get("first_address").asString())
                            .isEqualTo("0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266");
                }
            }
        }
    }

    private static List<String> types(WebhookReceiver receiver) {
        return receiver.received().stream()
                .map(delivery -> JSON.readTree(delivery.body()).get("type").asString())
                .toList();
    }
}
