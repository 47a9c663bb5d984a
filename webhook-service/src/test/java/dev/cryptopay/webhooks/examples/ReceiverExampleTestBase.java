package dev.cryptopay.webhooks.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cryptopay.auth.internal.MerchantIdentity;
import dev.cryptopay.testsupport.webhook.WebhookReceiver;
import dev.cryptopay.webhooks.WebhookTestBase;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/**
 * The receiver examples under {@code webhook-service/examples/} checked against a real delivery: the running service
 * signs it with its own {@code WebhookSender} and sends it to a local endpoint, whose captured headers and body are
 * handed to the example.
 */
abstract class ReceiverExampleTestBase extends WebhookTestBase {

    private static final List<String> HEADERS = List.of(
            "X-Service-Signature", "X-Service-Event-Id", "X-Service-Timestamp", "X-Service-Timestamped-Signature");

    private WebhookReceiver receiver;

    @BeforeEach
    void startReceiver() {
        receiver = new WebhookReceiver();
    }

    @AfterEach
    void stopReceiver() {
        receiver.close();
    }

    /** The examples folder; tests run in the module's directory. */
    static Path examples(String file) {
        Path path = Path.of("examples").resolve(file).toAbsolutePath();
        assertThat(Files.isRegularFile(path)).as("example %s exists", path).isTrue();
        return path;
    }

    /** Registers an endpoint, publishes an event and lets the scheduler deliver it; answers what was received. */
    SignedDelivery deliver() {
        MerchantIdentity merchant = newMerchant();
        String secret = register(merchant, receiver.url("/examples"), List.of("payment.failed"))
                .get("secret")
                .asString();
        String eventId = publish("payment-links.events", merchant, "payment.failed", Map.of("id", "link_ünï"));
        await("delivery created", () -> deliveriesOfEvent(eventId) == 1);
        scheduler.drain().block();

        assertThat(receiver.received()).hasSize(1);
        WebhookReceiver.Received request = receiver.received().get(0);
        Map<String, String> headers = new LinkedHashMap<>();
        for (String name : HEADERS) {
            assertThat(request.header(name)).as(name).isNotBlank();
            headers.put(name, request.header(name));
        }
        assertThat(headers.get("X-Service-Event-Id")).isEqualTo(eventId);
        return new SignedDelivery(headers, request.body(), secret, Long.parseLong(headers.get("X-Service-Timestamp")));
    }
}
