package dev.cryptopay.webhooks.endpoint;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cryptopay.auth.internal.MerchantIdentity;
import dev.cryptopay.testsupport.webhook.WebhookReceiver;
import dev.cryptopay.webhooks.WebhookTestBase;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * Endpoint secrets at rest are bound to their endpoint, through the running service: a ciphertext copied onto another
 * endpoint's row signs nothing, and rows in the legacy form keep working and are re-encrypted in the bound form.
 */
class SecretBindingTest extends WebhookTestBase {

    @Autowired
    private SecretCipher cipher;

    @Autowired
    private LegacySecretUpgrade upgrade;

    private WebhookReceiver receiver;

    @BeforeEach
    void startReceiver() {
        receiver = new WebhookReceiver();
    }

    @AfterEach
    void stopReceiver() {
        receiver.close();
    }

    private record Registered(UUID id, String secret, String eventId) {}

    private Registered registerAndPublish(MerchantIdentity merchant, String path) {
        var endpoint = register(merchant, receiver.url(path), List.of("payment.failed"));
        String eventId = publish("payment-links.events", merchant, "payment.failed", Map.of("id", "link"));
        await("delivery created", () -> deliveriesOfEvent(eventId) == 1);
        return new Registered(
                UUID.fromString(endpoint.get("id").asString()),
                endpoint.get("secret").asString(),
                eventId);
    }

    private byte[] storedSecret(UUID endpointId) {
        return database.sql("SELECT secret_encrypted FROM webhook_endpoint WHERE id = :id")
                .bind("id", endpointId)
                .map(row -> row.get(0, byte[].class))
                .one()
                .block();
    }

    private void storeSecret(UUID endpointId, byte[] encrypted) {
        database.sql("UPDATE webhook_endpoint SET secret_encrypted = :secret WHERE id = :id")
                .bind("secret", ByteBuffer.wrap(encrypted))
                .bind("id", endpointId)
                .then()
                .block();
    }

    private String deliveryStatus(String eventId) {
        return database.sql("SELECT status || ':' || attempts FROM webhook_delivery WHERE event_id = :id")
                .bind("id", UUID.fromString(eventId))
                .map(row -> row.get(0, String.class))
                .one()
                .block();
    }

    @Test
    void aSecretCopiedOntoAnotherEndpointsRowSignsNothingAndTheOtherDeliveriesGoOut() {
        Registered a = registerAndPublish(newMerchant(), "/a");
        Registered b = registerAndPublish(newMerchant(), "/b");
        storeSecret(b.id(), storedSecret(a.id()));

        scheduler.drain().block();

        assertThat(receiver.received())
                .extracting(WebhookReceiver.Received::path)
                .containsExactly("/a");
        assertThat(deliveryStatus(a.eventId())).isEqualTo("succeeded:1");
        assertThat(deliveryStatus(b.eventId()))
                .as("contained: not sent, not counted, retried once its claim lapses")
                .isEqualTo("pending:0");
    }

    @Test
    void aLegacyRowIsDeliveredWithItsSecretAndUpgradedOnTheWay() {
        Registered endpoint = registerAndPublish(newMerchant(), "/legacy");
        byte[] legacy = cipher.encryptLegacy(endpoint.secret());
        storeSecret(endpoint.id(), legacy);

        scheduler.drain().block();

        assertThat(receiver.received()).hasSize(1);
        WebhookReceiver.Received request = receiver.received().get(0);
        assertThat(request.header("x-service-signature"))
                .isEqualTo(WebhookReceiver.hmacHex(endpoint.secret(), request.body()));
        byte[] upgraded = storedSecret(endpoint.id());
        assertThat(upgraded).isNotEqualTo(legacy);
        assertThat(upgraded[0]).isEqualTo(SecretCipher.BOUND);
        SecretCipher.Opened opened = cipher.decrypt(endpoint.id(), upgraded);
        assertThat(opened.legacy()).isFalse();
        assertThat(opened.secret()).isEqualTo(endpoint.secret());
    }

    @Test
    void theStartupStepUpgradesEveryLegacyRowAndLeavesBoundAndBrokenRowsAlone() {
        MerchantIdentity merchant = newMerchant();
        var first = register(merchant, receiver.url("/one"), List.of("payment.failed"));
        var second = register(merchant, receiver.url("/two"), List.of("payment.failed"));
        var broken = register(merchant, receiver.url("/broken"), List.of("payment.failed"));
        UUID legacyId = UUID.fromString(first.get("id").asString());
        UUID boundId = UUID.fromString(second.get("id").asString());
        UUID brokenId = UUID.fromString(broken.get("id").asString());
        storeSecret(legacyId, cipher.encryptLegacy(first.get("secret").asString()));
        byte[] bound = storedSecret(boundId);
        storeSecret(brokenId, new byte[] {1, 2, 3});

        assertThat(upgrade.upgradeAll().block()).isGreaterThanOrEqualTo(1L);

        SecretCipher.Opened opened = cipher.decrypt(legacyId, storedSecret(legacyId));
        assertThat(opened.legacy()).isFalse();
        assertThat(opened.secret()).isEqualTo(first.get("secret").asString());
        assertThat(storedSecret(boundId)).isEqualTo(bound);
        assertThat(storedSecret(brokenId)).containsExactly(1, 2, 3);
        assertThat(upgrade.upgradeAll().block()).as("nothing left to upgrade").isZero();
    }
}
