package dev.cryptopay.service.web;

import dev.cryptopay.auth.internal.InternalHeaders;
import dev.cryptopay.auth.internal.InternalRequest;
import dev.cryptopay.auth.internal.InternalTokenSigner;
import dev.cryptopay.auth.internal.MerchantCredential;
import dev.cryptopay.auth.internal.MerchantIdentity;
import dev.cryptopay.testsupport.InternalTestKeys;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.WebTestClient;

/**
 * Requests to the test service with internal tokens of the callers its application.yml accepts, signed over exactly
 * what is sent, or over something else to show that a change on the way is refused.
 */
final class TestTokens {

    static final InternalTokenSigner GATEWAY = InternalTestKeys.gateway();
    static final InternalTokenSigner CHAIN_WATCHER = InternalTestKeys.chainWatcher();

    /** The test service's id (its application.yml's internal-auth.audience). */
    static final String AUDIENCE = "test-service";

    private TestTokens() {}

    /** What a token is issued for; a test changes one part of the request actually sent. */
    record Signed(
            InternalTokenSigner caller,
            String audience,
            MerchantIdentity identity,
            MerchantCredential credential,
            HttpMethod method,
            String rawUri,
            byte[] body) {

        static Signed of(InternalTokenSigner caller, MerchantIdentity identity, HttpMethod method, String rawUri) {
            return new Signed(
                    caller,
                    AUDIENCE,
                    identity,
                    identity == null ? null : MerchantCredential.API_KEY,
                    method,
                    rawUri,
                    null);
        }

        Signed body(String text) {
            return new Signed(
                    caller, audience, identity, credential, method, rawUri, text.getBytes(StandardCharsets.UTF_8));
        }

        /** The same request, for another service. */
        Signed audience(String other) {
            return new Signed(caller, other, identity, credential, method, rawUri, body);
        }

        /** The same request, as named by another credential. */
        Signed credential(MerchantCredential other) {
            return new Signed(caller, audience, identity, other, method, rawUri, body);
        }

        String token(Instant issuedAt) {
            URI uri = URI.create(rawUri);
            return caller.issue(
                    audience,
                    identity,
                    credential,
                    InternalRequest.of(method.name(), uri.getRawPath(), uri.getRawQuery(), body),
                    issuedAt);
        }

        /** Sends exactly what was signed. */
        WebTestClient.ResponseSpec send(WebTestClient client, int port) {
            return TestTokens.send(client, port, this, Instant.now());
        }
    }

    /** Sends {@code sent} with the token issued for {@code signed} at {@code issuedAt}. */
    static WebTestClient.ResponseSpec send(
            WebTestClient client, int port, Signed sent, Signed signed, Instant issuedAt) {
        WebTestClient.RequestBodySpec spec = client.method(sent.method())
                .uri(URI.create("http://127.0.0.1:" + port + sent.rawUri()))
                .header(InternalHeaders.INTERNAL_AUTH, signed.token(issuedAt));
        if (sent.identity() != null) {
            spec = spec.header(
                            InternalHeaders.MERCHANT_ID,
                            sent.identity().merchantId().toString())
                    .header(
                            InternalHeaders.MERCHANT_MODE,
                            sent.identity().mode().wireName());
        }
        if (sent.credential() != null) {
            spec = spec.header(
                    InternalHeaders.MERCHANT_CREDENTIAL, sent.credential().wireName());
        }
        if (sent.body() != null) {
            return spec.contentType(MediaType.APPLICATION_JSON)
                    .bodyValue(sent.body())
                    .exchange();
        }
        return spec.exchange();
    }

    static WebTestClient.ResponseSpec send(WebTestClient client, int port, Signed signed, Instant issuedAt) {
        return send(client, port, signed, signed, issuedAt);
    }
}
