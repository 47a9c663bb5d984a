package dev.cryptopay.webhooks.hostile;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cryptopay.auth.internal.MerchantIdentity;
import dev.cryptopay.testsupport.hostile.HostileRequests;
import dev.cryptopay.testsupport.hostile.MerchantRows;
import dev.cryptopay.webhooks.WebhookTestBase;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpMethod;

/**
 * The shared hostile-request corpus (test-support {@code hostile/}) against every route of the service: each answer
 * is a 2xx or a 4xx within the time limit, and a 4xx leaves the merchant's rows (endpoints, events, deliveries,
 * idempotency keys) as they were.
 */
class HostileRequestsTest extends WebhookTestBase {

    @Test
    void endpointRoutesAnswerHostileRequestsWithA4xxAndChangeNothing() {
        MerchantIdentity merchant = newMerchant();
        String endpoint = register(merchant, "https://example.com/hooks", List.of("payment.completed"))
                .get("id")
                .asString();

        HostileRequests.Report report = HostileRequests.to((method, uri) -> asEncoded(merchant, method, uri))
                .state(MerchantRows.of("webhooks", merchant.merchantId()))
                .write(
                        HttpMethod.POST,
                        "/webhook-endpoints",
                        "{\"url\":\"https://example.com/other\",\"events\":[\"payment.completed\",\"payment.failed\"],"
                                + "\"description\":\"Orders\"}")
                .read("/webhook-endpoints")
                .read("/webhook-endpoints/" + endpoint)
                .ids(HttpMethod.GET, "/webhook-endpoints/{id}", null)
                .ids(HttpMethod.DELETE, "/webhook-endpoints/{id}", null)
                .ids(HttpMethod.POST, "/webhook-endpoints/{id}/rotate-secret", null)
                .ids(HttpMethod.POST, "/webhook-endpoints/{id}/enable", null)
                .actuator()
                .run();

        assertThat(report.cases()).isGreaterThan(200);
        assertThat(report.clientErrors()).isGreaterThan(report.cases() / 2);
    }

    @Test
    void deliveryRoutesAnswerHostileRequestsWithA4xxAndChangeNothing() {
        MerchantIdentity merchant = newMerchant();
        String endpoint = register(merchant, "https://example.com/hooks", List.of("payment.completed"))
                .get("id")
                .asString();
        String event = publish("payment-links.events", merchant, "payment.completed", Map.of("id", "link-1"));
        await("delivery created", () -> deliveriesOfEvent(event) == 1);
        UUID delivery = database.sql("SELECT id FROM webhook_delivery WHERE event_id = :event")
                .bind("event", UUID.fromString(event))
                .map(row -> row.get(0, UUID.class))
                .one()
                .block();
        String since = "{\"since\":\"" + clock.instant().minus(Duration.ofHours(1)) + "\"}";

        HostileRequests.Report report = HostileRequests.to((method, uri) -> asEncoded(merchant, method, uri))
                .state(MerchantRows.of("webhooks", merchant.merchantId()))
                .read("/webhook-endpoints/" + endpoint + "/deliveries", "page", "limit", "status", "event_type")
                .ids(HttpMethod.GET, "/webhook-endpoints/{id}/deliveries", null)
                .read("/webhook-deliveries/" + delivery)
                .ids(HttpMethod.GET, "/webhook-deliveries/{id}", null)
                .ids(HttpMethod.POST, "/webhook-deliveries/{id}/retry", null)
                .write(HttpMethod.POST, "/webhook-endpoints/" + endpoint + "/recover", since)
                .ids(HttpMethod.POST, "/webhook-endpoints/{id}/recover", since)
                .run();

        assertThat(report.cases()).isGreaterThan(200);
        assertThat(report.clientErrors()).isGreaterThan(report.cases() / 2);
    }

    @Test
    void eventRoutesAnswerHostileRequestsWithA4xxAndChangeNothing() {
        MerchantIdentity merchant = newMerchant();
        register(merchant, "https://example.com/hooks", List.of("payment.completed"));
        String link = UUID.randomUUID().toString();
        String event = publish("payment-links.events", merchant, "payment.completed", Map.of("id", link));
        await("delivery created", () -> deliveriesOfEvent(event) == 1);

        HostileRequests.Report report = HostileRequests.to((method, uri) -> asEncoded(merchant, method, uri))
                .state(MerchantRows.of("webhooks", merchant.merchantId()))
                .read("/events", "page", "limit", "object_id", "type", "created_from", "created_to")
                .read("/events/" + event)
                .ids(HttpMethod.GET, "/events/{id}", null)
                .run();

        // Reads only (no bodies): fewer cases than the routes above, 171 with today's corpus.
        assertThat(report.cases()).isGreaterThan(150);
        assertThat(report.clientErrors()).isGreaterThan(report.cases() / 2);
    }
}
