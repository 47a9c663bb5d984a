package dev.cryptopay.webhooks.intake;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cryptopay.auth.internal.MerchantIdentity;
import dev.cryptopay.testsupport.PostgresDatabaseExtension;
import dev.cryptopay.testsupport.webhook.WebhookReceiver;
import dev.cryptopay.webhooks.WebhookTestBase;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.context.TestPropertySource;

/**
 * With the delivery loop running but polling only once an hour, a new event is still delivered within seconds: the
 * intake wakes the scheduler once the event's deliveries are stored. Its own topic and consumer group keep the other
 * test classes' consumers out.
 */
@TestPropertySource(
        properties = {
            "webhooks.delivery.enabled=true",
            "webhooks.delivery.poll-interval=1h",
            "webhooks.topic-pattern=intake-wakes\\.events",
            "webhooks.consumer-group=intake-wakes"
        })
class IntakeWakesDeliveryTest extends WebhookTestBase {

    /** Its own database too: a running delivery loop claims every due delivery it can see. */
    @RegisterExtension
    static final PostgresDatabaseExtension postgres = new PostgresDatabaseExtension();

    @DynamicPropertySource
    static void ownDatabase(DynamicPropertyRegistry registry) {
        postgres.registerSpringProperties(registry);
    }

    @Test
    void aStoredEventIsDeliveredWithoutWaitingForThePoll() throws Exception {
        try (WebhookReceiver receiver = new WebhookReceiver()) {
            MerchantIdentity merchant = newMerchant();
            register(merchant, receiver.url("/woken"), List.of("payment.created"));
            Thread.sleep(500); // the loop's first pass is over: from now on it waits an hour unless woken

            String first = publish("intake-wakes.events", merchant, "payment.created", Map.of("n", 1));
            await("the first event delivered", () -> receiver.received().size() == 1);
            String second = publish("intake-wakes.events", merchant, "payment.created", Map.of("n", 2));
            await("the second event delivered", () -> receiver.received().size() == 2);

            assertThat(receiver.received())
                    .extracting(received -> received.header("x-service-event-id"))
                    .containsExactly(first, second);
        }
    }
}
