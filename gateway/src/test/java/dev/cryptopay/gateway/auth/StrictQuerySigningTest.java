package dev.cryptopay.gateway.auth;

import dev.cryptopay.gateway.support.GatewayInstance;
import dev.cryptopay.gateway.support.MerchantKey;
import dev.cryptopay.gateway.support.SignedRequest;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** {@code gateway.auth.require-query-in-signed-path=true}: the query string must be part of the signed path. */
class StrictQuerySigningTest {

    private static GatewayInstance gateway;

    @BeforeAll
    static void start() {
        gateway = GatewayInstance.start(Map.of("gateway.auth.require-query-in-signed-path", "true"));
    }

    @AfterAll
    static void stop() {
        if (gateway != null) {
            gateway.close();
        }
    }

    @Test
    void acceptsSignatureOverPathWithQuery() {
        MerchantKey key = gateway.admin().newMerchantKey();
        SignedRequest.of("GET", "/payment_links?page=2")
                .send(gateway.client(), gateway.baseUrl(), key)
                .expectStatus()
                .isOk();
    }

    @Test
    void rejectsSignatureOverBarePathWhenQueryIsSent() {
        MerchantKey key = gateway.admin().newMerchantKey();
        SignatureAuthenticationTest.expectUnauthorized(
                SignedRequest.of("GET", "/payment_links?page=2")
                        .signedPath("/payment_links")
                        .send(gateway.client(), gateway.baseUrl(), key),
                "invalid_signature",
                "Invalid signature");
    }

    @Test
    void acceptsBarePathWhenThereIsNoQuery() {
        MerchantKey key = gateway.admin().newMerchantKey();
        SignedRequest.of("GET", "/payment_links")
                .send(gateway.client(), gateway.baseUrl(), key)
                .expectStatus()
                .isOk();
    }
}
