package dev.cryptopay.webhooks.endpoint;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cryptopay.auth.internal.MerchantIdentity;
import dev.cryptopay.testsupport.webhook.WebhookReceiver;
import dev.cryptopay.testsupport.webhook.WebhookReceiver.Reply;
import dev.cryptopay.webhooks.WebhookTestBase;
import dev.cryptopay.webhooks.operations.DeliveryBacklogMetrics;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.http.HttpMethod;
import tools.jackson.databind.JsonNode;

/**
 * An endpoint whose every attempt fails for days is disabled (here: 5 days and at least 3 failed attempts, the test
 * setting), with an operational event; its deliveries are held, not lost, and enabling it resumes them and starts
 * its failure clock afresh. Time is moved with the service's clock; the receiver is real HTTP.
 */
@ExtendWith(OutputCaptureExtension.class)
class AutoDisableTest extends WebhookTestBase {

    private static final String TYPE = "payment.failed";
    private static final List<Duration> RETRIES =
            List.of(Duration.ofMinutes(5), Duration.ofMinutes(30), Duration.ofHours(2), Duration.ofHours(24));

    @Autowired
    private DeliveryBacklogMetrics backlog;

    private WebhookReceiver receiver;

    @BeforeEach
    void startReceiver() {
        receiver = new WebhookReceiver().otherwise(call -> Reply.status(503));
    }

    @AfterEach
    void stopReceiver() {
        receiver.close();
    }

    /** What a disabled endpoint leaves: its id, when it began failing, and the deliveries it holds. */
    private record Disabled(String id, Instant failingSince, List<UUID> held) {}

    /**
     * One delivery fails through its whole schedule (5 attempts in a day: not yet long enough), then, five days after
     * the first failure, the first attempt of the next event fails too and disables the endpoint. One more event
     * arrives while it is disabled.
     */
    private Disabled disable(MerchantIdentity merchant) {
        Instant start = clock.instant();
        String id = register(merchant, receiver.url("/down"), List.of(TYPE))
                .get("id")
                .asString();
        publishEvents(merchant, TYPE, 1, 1);
        scheduler.drain().block();
        for (Duration retry : RETRIES) {
            clock.set(start.plus(retry));
            scheduler.drain().block();
        }
        JsonNode stillEnabled = endpoint(merchant, id);
        assertThat(stillEnabled.get("enabled").asBoolean())
                .as("failing for a day only")
                .isTrue();
        assertThat(Instant.parse(stillEnabled.get("failing_since").asString())).isEqualTo(start);

        clock.set(start.plus(Duration.ofDays(5)));
        publishEvents(merchant, TYPE, 1, 2);
        scheduler.drain().block();
        assertThat(receiver.received()).hasSize(6);
        publishEvents(merchant, TYPE, 1, 3);
        return new Disabled(id, start, pending(id));
    }

    @Test
    void anEndpointFailingForFiveDaysIsDisabledWithAnOperationalEventAndItsDeliveriesAreHeld(CapturedOutput output) {
        MerchantIdentity merchant = newMerchant();
        Disabled disabled = disable(merchant);

        JsonNode endpoint = endpoint(merchant, disabled.id());
        assertThat(endpoint.get("enabled").asBoolean()).isFalse();
        assertThat(Instant.parse(endpoint.get("disabled_at").asString())).isEqualTo(clock.instant());
        assertThat(endpoint.get("disabled_reason").asString())
                .isEqualTo("Every delivery attempt since " + disabled.failingSince() + " failed (6 attempts in a "
                        + "row); deliveries are held until the endpoint is enabled again");
        assertThat(output.getOut())
                .contains("endpoint_disabled endpoint_id=" + disabled.id() + " merchant_id=" + merchant.merchantId()
                        + " mode=test failing_since=" + disabled.failingSince()
                        + " failed_attempts=6 disable_after=PT120H");

        assertThat(disabled.held())
                .as("the retry due and the event that arrived meanwhile")
                .hasSize(2);
        clock.advance(Duration.ofDays(1));
        scheduler.drain().block();
        assertThat(receiver.received()).as("nothing is sent while disabled").hasSize(6);
        assertThat(pending(disabled.id())).containsExactlyInAnyOrderElementsOf(disabled.held());

        backlog.measure().block();
        String prometheus = prometheus();
        assertThat(metric(prometheus, "webhook_endpoints_auto_disabled_total")).isGreaterThanOrEqualTo(1);
        assertThat(metric(prometheus, "webhook_endpoints_disabled")).isGreaterThanOrEqualTo(1);
        assertThat(metric(prometheus, "webhook_deliveries_held")).isGreaterThanOrEqualTo(2);
    }

    @Test
    void enablingResumesTheHeldDeliveriesNowAndStartsTheFailureClockAfresh() {
        MerchantIdentity merchant = newMerchant();
        Disabled disabled = disable(merchant);
        String enable = "/webhook-endpoints/" + disabled.id() + "/enable";
        as(newMerchant(), HttpMethod.POST, enable).exchange().expectStatus().isNotFound();
        receiver.otherwise(call -> Reply.status(200));

        JsonNode enabled = read(
                as(merchant, HttpMethod.POST, enable).exchange().expectStatus().isOk());

        assertThat(enabled.get("message").asString()).isEqualTo("Webhook endpoint enabled");
        assertThat(enabled.get("data").get("enabled").asBoolean()).isTrue();
        assertThat(enabled.get("data").has("disabled_at")).isFalse();
        assertThat(enabled.get("data").has("disabled_reason")).isFalse();
        assertThat(enabled.get("data").has("failing_since")).isFalse();
        scheduler.drain().block();
        assertThat(receiver.received()).hasSize(8);
        assertThat(disabled.held())
                .allSatisfy(delivery -> assertThat(deliveryStatus(delivery)).isEqualTo("succeeded"));

        // A fresh run of failures: one failure now does not disable it again.
        receiver.otherwise(call -> Reply.status(503));
        publishEvents(merchant, TYPE, 1, 4);
        scheduler.drain().block();
        JsonNode failingAgain = endpoint(merchant, disabled.id());
        assertThat(failingAgain.get("enabled").asBoolean()).isTrue();
        assertThat(Instant.parse(failingAgain.get("failing_since").asString())).isEqualTo(clock.instant());
        JsonNode again = read(
                as(merchant, HttpMethod.POST, enable).exchange().expectStatus().isOk());
        assertThat(again.get("data").get("failing_since").asString())
                .as("enabling an enabled endpoint changes nothing")
                .isEqualTo(failingAgain.get("failing_since").asString());
    }

    @Test
    void aSuccessBetweenFailuresStartsTheFailureClockAfresh() {
        MerchantIdentity merchant = newMerchant();
        Instant start = clock.instant();
        String id = register(merchant, receiver.url("/flaky"), List.of(TYPE))
                .get("id")
                .asString();
        receiver.script(Reply.status(500), Reply.status(200));
        publishEvents(merchant, TYPE, 1, 1);
        scheduler.drain().block();
        clock.set(start.plus(Duration.ofMinutes(5)));
        scheduler.drain().block();
        assertThat(endpoint(merchant, id).has("failing_since"))
                .as("the success ended the run")
                .isFalse();

        clock.set(start.plus(Duration.ofDays(5)));
        publishEvents(merchant, TYPE, 3, 4);
        scheduler.drain().block();

        JsonNode endpoint = endpoint(merchant, id);
        assertThat(endpoint.get("enabled").asBoolean())
                .as("3 failures, but only just now")
                .isTrue();
        assertThat(Instant.parse(endpoint.get("failing_since").asString())).isEqualTo(clock.instant());
    }

    private JsonNode endpoint(MerchantIdentity merchant, String id) {
        return read(as(merchant, HttpMethod.GET, "/webhook-endpoints/" + id)
                        .exchange()
                        .expectStatus()
                        .isOk())
                .get("data");
    }

    private List<UUID> pending(String endpointId) {
        return database.sql("SELECT id FROM webhook_delivery WHERE endpoint_id = :endpoint AND status = 'pending'")
                .bind("endpoint", UUID.fromString(endpointId))
                .map(row -> row.get(0, UUID.class))
                .all()
                .collectList()
                .block();
    }
}
