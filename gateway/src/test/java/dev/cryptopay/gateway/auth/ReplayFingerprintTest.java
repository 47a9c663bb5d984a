package dev.cryptopay.gateway.auth;

import static dev.cryptopay.gateway.auth.SignatureAuthenticationTest.expectUnauthorized;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cryptopay.auth.Mode;
import dev.cryptopay.auth.keys.RsaKeyPairs;
import dev.cryptopay.auth.keys.SigningKey;
import dev.cryptopay.gateway.support.GatewayTestBase;
import dev.cryptopay.gateway.support.MerchantKey;
import dev.cryptopay.gateway.support.SignedRequest;
import java.security.SecureRandom;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The replay guard fingerprints the key and the canonical request, not the signature bytes. */
class ReplayFingerprintTest extends GatewayTestBase {

    private static final String REPLAYED = "Request already processed (replayed request)";

    @Test
    void refusesSameRequestSignedAgainWithRandomizedRsaPss() {
        MerchantKey key = rsaKey("PssShop");
        SignedRequest request = SignedRequest.of("POST", "/payment_links").body("{\"amount\":\"7.00\"}");
        assertThat(request.signature(key))
                .as("RSA-PSS signs the same request with other bytes each time")
                .isNotEqualTo(request.signature(key));
        request.send(client, baseUrl(), key).expectStatus().isOk();
        // send() signs again: new signature bytes, same canonical request.
        expectUnauthorized(request.send(client, baseUrl(), key), "replayed_request", REPLAYED);
    }

    @Test
    void acceptsDifferentRequestsWithTheSameTimestamp() {
        MerchantKey key = rsaKey("PssShop2");
        SignedRequest first = SignedRequest.of("POST", "/payment_links").body("{\"amount\":\"7.00\"}");
        first.send(client, baseUrl(), key).expectStatus().isOk();
        SignedRequest otherBody = SignedRequest.of("POST", "/payment_links")
                .body("{\"amount\":\"8.00\"}")
                .timestamp(first.timestamp());
        otherBody.send(client, baseUrl(), key).expectStatus().isOk();
        SignedRequest otherPath =
                SignedRequest.of("DELETE", "/payment_links/pl_7").timestamp(first.timestamp());
        otherPath.send(client, baseUrl(), key).expectStatus().isOk();
    }

    @Test
    void refusesReplaySignedWithoutTheQuery() {
        MerchantKey key = admin.newMerchantKey();
        SignedRequest withQuery = SignedRequest.of("DELETE", "/payment_links/pl_8?reason=dup");
        withQuery.send(client, baseUrl(), key).expectStatus().isOk();
        SignedRequest pathOnly = SignedRequest.of("DELETE", "/payment_links/pl_8?reason=dup")
                .signedPath("/payment_links/pl_8")
                .timestamp(withQuery.timestamp());
        expectUnauthorized(pathOnly.send(client, baseUrl(), key), "replayed_request", REPLAYED);
    }

    @Test
    void sameRequestFromAnotherKeyIsNotAReplay() {
        SignedRequest request = SignedRequest.of("POST", "/payment_links").body("{\"amount\":\"9.00\"}");
        request.send(client, baseUrl(), admin.newMerchantKey()).expectStatus().isOk();
        request.send(client, baseUrl(), admin.newMerchantKey()).expectStatus().isOk();
    }

    private MerchantKey rsaKey(String shop) {
        SigningKey rsa =
                SigningKey.parse(RsaKeyPairs.generate(new SecureRandom(), 2048).privateKeyPem());
        UUID merchantId = UUID.fromString(admin.createMerchant(shop).get("id").stringValue());
        return admin.newKey(merchantId, Mode.LIVE, rsa);
    }
}
