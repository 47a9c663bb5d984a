package dev.cryptopay.gateway.ratelimit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cryptopay.auth.Mode;
import dev.cryptopay.auth.apikey.ApiKey;
import dev.cryptopay.gateway.support.GatewayInstance;
import dev.cryptopay.gateway.support.MerchantKey;
import dev.cryptopay.gateway.support.SignedRequest;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpHeaders;
import org.springframework.test.web.reactive.server.WebTestClient;

/**
 * The per-address limit in front of authentication (5 per minute here): a flood of made-up API keys from one address
 * is refused with 429 before any key lookup, also for that address's real merchant, while other addresses go on;
 * IPv6 addresses count per /64. Clients are told apart by X-Forwarded-For from the trusted 127.0.0.1.
 */
class PreAuthLimitTest {

    private static GatewayInstance gateway;
    private static WebTestClient client;

    @BeforeAll
    static void start() {
        gateway = GatewayInstance.start(Map.of("gateway.rate-limit.limits.pre-auth", "5"));
        client = WebTestClient.bindToServer()
                .baseUrl(gateway.baseUrl())
                .responseTimeout(Duration.ofSeconds(15))
                .build();
    }

    @AfterAll
    static void stop() {
        if (gateway != null) {
            gateway.close();
        }
    }

    @Test
    void aFloodOfMadeUpKeysIsRefusedBeforeAnyKeyLookup() {
        MerchantKey real = gateway.admin().newMerchantKey();
        for (int i = 0; i < 5; i++) {
            madeUpKey(real, "198.51.100.7").expectStatus().isUnauthorized();
        }
        madeUpKey(real, "198.51.100.7")
                .expectStatus()
                .isEqualTo(429)
                .expectHeader()
                .exists(HttpHeaders.RETRY_AFTER)
                .expectBody()
                .jsonPath("$.code")
                .isEqualTo("rate_limited")
                .jsonPath("$.message")
                .value(message -> assertThat((String) message).contains("pre_auth"));
        signed(real, "198.51.100.7").expectStatus().isEqualTo(429);

        signed(real, "198.51.100.8").expectStatus().isOk();
    }

    @Test
    void ipv6ClientsCountPerSlash64() {
        MerchantKey real = gateway.admin().newMerchantKey();
        for (int i = 1; i <= 5; i++) {
            madeUpKey(real, "2001:db8:77:1::" + i).expectStatus().isUnauthorized();
        }
        madeUpKey(real, "2001:db8:77:1:ffff::9").expectStatus().isEqualTo(429);
        signed(real, "2001:db8:77:2::1").expectStatus().isOk();
    }

    /** Signed with a real key pair but sent with an API key nobody was ever given. */
    private static WebTestClient.ResponseSpec madeUpKey(MerchantKey signer, String clientAddress) {
        return SignedRequest.of("GET", "/payment_links")
                .apiKey(ApiKey.generate(Mode.TEST, new SecureRandom()).value())
                .header("X-Forwarded-For", clientAddress)
                .send(client, gateway.baseUrl(), signer);
    }

    private static WebTestClient.ResponseSpec signed(MerchantKey key, String clientAddress) {
        return SignedRequest.of("GET", "/payment_links")
                .header("X-Forwarded-For", clientAddress)
                .send(client, gateway.baseUrl(), key);
    }
}
