package dev.cryptopay.webhooks.delivery;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cryptopay.testsupport.webhook.WebhookReceiver;
import dev.cryptopay.testsupport.webhook.WebhookReceiver.Reply;
import dev.cryptopay.webhooks.address.AddressPolicy;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The HTTP client's refusals, without the rest of the service: SSRF guard and the per-attempt timeout. */
class DeliverySafetyTest {

    private WebhookReceiver receiver;

    @BeforeEach
    void startReceiver() {
        receiver = new WebhookReceiver();
    }

    @AfterEach
    void stopReceiver() {
        receiver.close();
    }

    private static WebhookSender sender(boolean allowPrivate, Duration timeout) {
        var delivery = new dev.cryptopay.webhooks.config.WebhookProperties.Delivery(
                true,
                java.util.List.of(Duration.ZERO),
                0,
                timeout,
                Duration.ofHours(1),
                allowPrivate,
                Duration.ofMillis(500),
                10,
                4,
                4,
                16,
                1000);
        var properties = new dev.cryptopay.webhooks.config.WebhookProperties(
                "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=",
                true,
                20,
                ".*\\.events",
                "g",
                Duration.ofSeconds(15),
                delivery,
                new dev.cryptopay.webhooks.config.WebhookProperties.Endpoints(Duration.ofDays(5), 10));
        return new WebhookSender(properties, new AddressPolicy(allowPrivate), Clock.systemUTC());
    }

    @Test
    void refusesLoopbackAtConnectTimeUnlessAllowedForDevelopment() {
        byte[] body = "{}".getBytes(StandardCharsets.UTF_8);

        AttemptResult refused = sender(false, Duration.ofSeconds(5))
                .send(receiver.url("/x"), "evt", body, "whsec_test")
                .block();
        AttemptResult byName = sender(false, Duration.ofSeconds(5))
                .send(receiver.url("/x").replace("127.0.0.1", "localhost"), "evt", body, "whsec_test")
                .block();

        assertThat(refused.outcome()).isEqualTo("refused_address");
        assertThat(refused.statusCode()).isNull();
        assertThat(byName.outcome()).isEqualTo("refused_address");
        assertThat(receiver.received()).isEmpty();

        AttemptResult allowed = sender(true, Duration.ofSeconds(5))
                .send(receiver.url("/x"), "evt", body, "whsec_test")
                .block();
        assertThat(allowed.outcome()).isEqualTo("success");
        assertThat(receiver.received()).hasSize(1);
    }

    @Test
    void anAttemptThatOutlivesTheTimeoutIsATimeout() {
        receiver.script(new Reply(200, java.util.Map.of(), Duration.ofSeconds(3)));

        AttemptResult result = sender(true, Duration.ofMillis(500))
                .send(receiver.url("/slow"), "evt", "{}".getBytes(StandardCharsets.UTF_8), "whsec_test")
                .block();

        assertThat(result.outcome()).isEqualTo("timeout");
        assertThat(result.latencyMillis()).isLessThan(2500);
    }

    @Test
    void aTarpitThatAcceptsAndNeverAnswersIsCutOffAtTheTimeout() {
        try (Tarpit tarpit = new Tarpit()) {
            AttemptResult result = sender(true, Duration.ofMillis(500))
                    .send(tarpit.url(), "evt", "{}".getBytes(StandardCharsets.UTF_8), "whsec_test")
                    .block(Duration.ofSeconds(10));

            assertThat(tarpit.mostOpen()).as("the connection was accepted").isEqualTo(1);
            assertThat(result.outcome()).isEqualTo("timeout");
            assertThat(result.statusCode()).isNull();
            assertThat(result.latencyMillis()).isLessThan(2500);
        }
    }

    @Test
    void aClosedPortIsAConnectionError() throws Exception {
        int port;
        try (var socket = new java.net.ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        AttemptResult result = sender(true, Duration.ofSeconds(2))
                .send("http://127.0.0.1:" + port + "/", "evt", new byte[0], "whsec_test")
                .block();
        assertThat(result.outcome()).isEqualTo("connection_error");
    }

    @Test
    void addressPolicyRefusesEveryPrivateRange() throws Exception {
        AddressPolicy strict = new AddressPolicy(false);
        for (String address : new String[] {
            "127.0.0.1",
            "10.1.2.3",
            "172.16.0.1",
            "192.168.1.1",
            "169.254.169.254",
            "100.64.0.1",
            "0.0.0.0",
            "224.0.0.1",
            "::1",
            "fe80::1",
            "fd00::1",
            "::ffff:127.0.0.1",
            "::ffff:10.0.0.1"
        }) {
            assertThat(strict.isAllowed(InetAddress.getByName(address)))
                    .as(address)
                    .isFalse();
        }
        for (String address : new String[] {"8.8.8.8", "1.1.1.1", "2606:4700:4700::1111"}) {
            assertThat(strict.isAllowed(InetAddress.getByName(address)))
                    .as(address)
                    .isTrue();
        }
        assertThat(strict.isAllowedLiteral("[::1]")).isFalse();
        assertThat(strict.isAllowedLiteral("localhost")).isFalse();
        assertThat(strict.isAllowedLiteral("hooks.example.com")).isTrue();
        assertThat(new AddressPolicy(true).isAllowed(InetAddress.getByName("127.0.0.1")))
                .isTrue();
    }
}
