package dev.cryptopay.gateway.outage;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cryptopay.auth.Mode;
import dev.cryptopay.auth.apikey.ApiKey;
import dev.cryptopay.auth.keys.Ed25519KeyPairs;
import dev.cryptopay.auth.keys.SigningKey;
import dev.cryptopay.gateway.support.GatewayInstance;
import dev.cryptopay.gateway.support.MerchantKey;
import dev.cryptopay.gateway.support.SignedRequest;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.Socket;
import java.security.SecureRandom;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A database that accepts connections and never answers (a hung server, a black-holed network path): a request whose
 * key must be looked up is answered 503 {@code key_registry_unavailable} with {@code Retry-After} within the lookup
 * timeout, not held until the client gives up.
 */
class UnresponsiveDatabaseTest {

    private static ServerSocket tarpit;
    private static final List<Socket> held = new CopyOnWriteArrayList<>();
    private static GatewayInstance gateway;

    @BeforeAll
    static void start() throws IOException {
        tarpit = new ServerSocket(0);
        Thread accepting = new Thread(() -> {
            while (!tarpit.isClosed()) {
                try {
                    held.add(tarpit.accept());
                } catch (IOException closed) {
                    return;
                }
            }
        });
        accepting.setDaemon(true);
        accepting.start();
        gateway = GatewayInstance.start(Map.of(
                "spring.r2dbc.url", "r2dbc:postgresql://127.0.0.1:" + tarpit.getLocalPort() + "/gateway",
                "spring.flyway.enabled", "false",
                "gateway.keys.lookup-timeout", "1s"));
    }

    @AfterAll
    static void stop() throws IOException {
        if (gateway != null) {
            gateway.close();
        }
        tarpit.close();
        for (Socket socket : held) {
            socket.close();
        }
    }

    @Test
    void aKeyLookupThatGetsNoAnswerIsA503WithinTheLookupTimeout() {
        SecureRandom random = new SecureRandom();
        MerchantKey unknown = new MerchantKey(
                UUID.randomUUID(),
                ApiKey.generate(Mode.TEST, random).value(),
                Mode.TEST,
                SigningKey.parse(Ed25519KeyPairs.generate(random).privateKeyPem()));
        for (int i = 0; i < 3; i++) {
            long started = System.nanoTime();
            SignedRequest.of("GET", "/payment_links?n=" + i)
                    .send(gateway.client(), gateway.baseUrl(), unknown)
                    .expectStatus()
                    .isEqualTo(503)
                    .expectHeader()
                    .valueEquals("Retry-After", "2")
                    .expectBody()
                    .jsonPath("$.code")
                    .isEqualTo("key_registry_unavailable");
            assertThat((System.nanoTime() - started) / 1_000_000)
                    .as("milliseconds to the answer")
                    .isLessThan(3_000);
        }
        assertThat(held).as("the lookup did reach the database").isNotEmpty();
    }
}
