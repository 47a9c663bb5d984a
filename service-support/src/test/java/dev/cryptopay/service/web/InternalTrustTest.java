package dev.cryptopay.service.web;

import static dev.cryptopay.service.web.TestTokens.CHAIN_WATCHER;
import static dev.cryptopay.service.web.TestTokens.GATEWAY;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cryptopay.auth.Mode;
import dev.cryptopay.auth.internal.InternalCallers;
import dev.cryptopay.auth.internal.InternalHeaders;
import dev.cryptopay.auth.internal.InternalTokenSigner;
import dev.cryptopay.auth.internal.MerchantCredential;
import dev.cryptopay.auth.internal.MerchantIdentity;
import dev.cryptopay.auth.keys.Ed25519KeyPairs;
import dev.cryptopay.service.web.TestTokens.Signed;
import dev.cryptopay.testsupport.InternalTestKeys;
import dev.cryptopay.testsupport.PostgresDatabaseExtension;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.boot.webtestclient.autoconfigure.AutoConfigureWebTestClient;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.web.reactive.server.WebTestClient;
import reactor.test.StepVerifier;

/**
 * The internal token as a service checks it: bound to caller, identity, method, path, query and body, short-lived,
 * and accepted only on routes that accept its caller.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@AutoConfigureWebTestClient
class InternalTrustTest {

    @RegisterExtension
    static final PostgresDatabaseExtension postgres = new PostgresDatabaseExtension();

    @DynamicPropertySource
    static void database(DynamicPropertyRegistry registry) {
        postgres.registerSpringProperties(registry);
    }

    private static final MerchantIdentity MERCHANT = new MerchantIdentity(UUID.randomUUID(), Mode.TEST);
    private static final String REPORT = "{\"tx_hash\":\"0xabc\",\"amount\":\"10.00\"}";

    @Autowired
    WebTestClient client;

    @LocalServerPort
    int port;

    private static Signed gateway(HttpMethod method, String rawUri) {
        return Signed.of(GATEWAY, MERCHANT, method, rawUri);
    }

    private WebTestClient.ResponseSpec send(Signed sent, Signed signed) {
        return TestTokens.send(client, port, sent, signed, Instant.now());
    }

    private static void isRefusedAsUnauthenticated(WebTestClient.ResponseSpec response) {
        response.expectStatus()
                .isUnauthorized()
                .expectHeader()
                .contentType(MediaType.APPLICATION_PROBLEM_JSON)
                .expectBody()
                .jsonPath("$.status")
                .isEqualTo(401)
                .jsonPath("$.code")
                .isEqualTo("internal_auth_failed")
                .jsonPath("$.request_id")
                .isNotEmpty();
    }

    @Test
    void acceptsATokenBoundToTheExactQueryAndBodyAndHandsTheBodyOn() {
        gateway(HttpMethod.POST, "/echo?page=2&q=caf%C3%A9")
                .body("{\"a\":0.10,  \"b\":\"x\"}")
                .send(client, port)
                .expectStatus()
                .isOk()
                .expectBody(String.class)
                .isEqualTo("{\"a\":0.10,\"b\":\"x\"}");
    }

    @Test
    void refusesAChangedQueryString() {
        isRefusedAsUnauthenticated(
                send(gateway(HttpMethod.GET, "/whoami?page=2"), gateway(HttpMethod.GET, "/whoami?page=1")));
        isRefusedAsUnauthenticated(send(gateway(HttpMethod.GET, "/whoami?page=1"), gateway(HttpMethod.GET, "/whoami")));
        isRefusedAsUnauthenticated(send(gateway(HttpMethod.GET, "/whoami"), gateway(HttpMethod.GET, "/whoami?page=1")));
    }

    @Test
    void refusesAChangedBody() {
        Signed signed = gateway(HttpMethod.POST, "/echo").body("{\"amount\":\"10.00\"}");
        isRefusedAsUnauthenticated(send(gateway(HttpMethod.POST, "/echo").body("{\"amount\":\"99.00\"}"), signed));
        isRefusedAsUnauthenticated(send(gateway(HttpMethod.POST, "/echo").body("{\"amount\":\"10.00\"} "), signed));
    }

    @Test
    void refusesAChangedPathMethodOrIdentity() {
        isRefusedAsUnauthenticated(send(gateway(HttpMethod.GET, "/whoami"), gateway(HttpMethod.GET, "/greetings")));
        isRefusedAsUnauthenticated(send(gateway(HttpMethod.GET, "/whoami"), gateway(HttpMethod.HEAD, "/whoami")));
        MerchantIdentity other = new MerchantIdentity(UUID.randomUUID(), Mode.TEST);
        isRefusedAsUnauthenticated(
                send(Signed.of(GATEWAY, other, HttpMethod.GET, "/whoami"), gateway(HttpMethod.GET, "/whoami")));
        MerchantIdentity live = new MerchantIdentity(MERCHANT.merchantId(), Mode.LIVE);
        isRefusedAsUnauthenticated(
                send(Signed.of(GATEWAY, live, HttpMethod.GET, "/whoami"), gateway(HttpMethod.GET, "/whoami")));
    }

    @Test
    void refusesATokenOlderThanTenSeconds() {
        isRefusedAsUnauthenticated(TestTokens.send(
                client, port, gateway(HttpMethod.GET, "/whoami"), Instant.now().minusSeconds(15)));
    }

    @Test
    void refusesATokenDatedMoreThanTwoSecondsAhead() {
        isRefusedAsUnauthenticated(TestTokens.send(
                client, port, gateway(HttpMethod.GET, "/whoami"), Instant.now().plusSeconds(5)));
    }

    @Test
    void refusesTheFormerTokenVersionAndMalformedIdentityHeaders() {
        long now = Instant.now().getEpochSecond();
        isRefusedAsUnauthenticated(client.get()
                .uri("/whoami")
                .header(InternalHeaders.MERCHANT_ID, MERCHANT.merchantId().toString())
                .header(InternalHeaders.MERCHANT_MODE, "test")
                .header(InternalHeaders.INTERNAL_AUTH, "v1." + now + ".k7o0fEH9qXUVREUHoUJ3ofJCsR6tkaEdTMhgjqXj7dg")
                .exchange());
        isRefusedAsUnauthenticated(client.get()
                .uri("/whoami")
                .header(InternalHeaders.MERCHANT_ID, "not-a-uuid")
                .header(InternalHeaders.MERCHANT_MODE, "test")
                .header(InternalHeaders.INTERNAL_AUTH, "v2.gateway.1.x")
                .exchange());
        isRefusedAsUnauthenticated(client.get()
                .uri("/whoami")
                .header(InternalHeaders.MERCHANT_ID, MERCHANT.merchantId().toString())
                .header(InternalHeaders.MERCHANT_MODE, "test")
                .header(InternalHeaders.MERCHANT_CREDENTIAL, "password")
                .header(
                        InternalHeaders.INTERNAL_AUTH,
                        gateway(HttpMethod.GET, "/whoami").token(Instant.now()))
                .exchange());
    }

    @Test
    void refusesATokenMadeForAnotherService() {
        // What payment-links-service was sent, passed on by it to this service: worthless here.
        isRefusedAsUnauthenticated(gateway(HttpMethod.GET, "/whoami")
                .audience(InternalCallers.PAYMENT_LINKS_SERVICE)
                .send(client, port));
    }

    @Test
    void handsOnHowTheMerchantWasNamedAndRefusesAChangedCredential() {
        gateway(HttpMethod.GET, "/whoami")
                .send(client, port)
                .expectStatus()
                .isOk()
                .expectBody()
                .jsonPath("$.credential")
                .isEqualTo("api_key");
        Signed publishable = gateway(HttpMethod.GET, "/whoami").credential(MerchantCredential.PUBLISHABLE_KEY);
        publishable
                .send(client, port)
                .expectStatus()
                .isOk()
                .expectBody()
                .jsonPath("$.credential")
                .isEqualTo("publishable_key");
        isRefusedAsUnauthenticated(send(gateway(HttpMethod.GET, "/whoami"), publishable));
        isRefusedAsUnauthenticated(send(publishable, gateway(HttpMethod.GET, "/whoami")));
    }

    @Test
    void refusesCallersItHoldsNoKeyForAndCallersUsingAnothersName() {
        InternalTokenSigner unknown = InternalTokenSigner.parse(
                "payouts", Ed25519KeyPairs.generate(new SecureRandom()).privateKeyCompact());
        isRefusedAsUnauthenticated(
                Signed.of(unknown, null, HttpMethod.GET, "/shared").send(client, port));
        InternalTokenSigner watcherKeyAsGateway =
                InternalTokenSigner.parse(InternalCallers.GATEWAY, InternalTestKeys.CHAIN_WATCHER_PRIVATE_KEY);
        isRefusedAsUnauthenticated(Signed.of(watcherKeyAsGateway, MERCHANT, HttpMethod.GET, "/whoami")
                .send(client, port));
    }

    @Test
    void aRouteForTheChainWatcherRefusesTheGatewayWith403() {
        Signed.of(GATEWAY, null, HttpMethod.POST, "/internal/reports")
                .body(REPORT)
                .send(client, port)
                .expectStatus()
                .isForbidden()
                .expectHeader()
                .contentType(MediaType.APPLICATION_PROBLEM_JSON)
                .expectBody()
                .jsonPath("$.status")
                .isEqualTo(403)
                .jsonPath("$.code")
                .isEqualTo("internal_caller_not_allowed")
                .jsonPath("$.request_id")
                .isNotEmpty();
        Signed.of(GATEWAY, MERCHANT, HttpMethod.POST, "/internal/reports")
                .body(REPORT)
                .send(client, port)
                .expectStatus()
                .isForbidden();
    }

    @Test
    void aRouteForTheChainWatcherAcceptsIt() {
        Signed.of(CHAIN_WATCHER, null, HttpMethod.POST, "/internal/reports")
                .body(REPORT)
                .send(client, port)
                .expectStatus()
                .isOk()
                .expectBody()
                .jsonPath("$.tx_hash")
                .isEqualTo("0xabc");
    }

    @Test
    void merchantRoutesRefuseEveryCallerButTheGateway() {
        Signed.of(CHAIN_WATCHER, MERCHANT, HttpMethod.GET, "/whoami")
                .send(client, port)
                .expectStatus()
                .isForbidden()
                .expectBody()
                .jsonPath("$.code")
                .isEqualTo("internal_caller_not_allowed");
        Signed.of(CHAIN_WATCHER, MERCHANT, HttpMethod.GET, "/nowhere")
                .send(client, port)
                .expectStatus()
                .isForbidden();
    }

    @Test
    void aRouteMayAcceptSeveralCallers() {
        for (InternalTokenSigner caller : new InternalTokenSigner[] {GATEWAY, CHAIN_WATCHER}) {
            Signed.of(caller, null, HttpMethod.GET, "/shared")
                    .send(client, port)
                    .expectStatus()
                    .isOk();
        }
    }

    @Test
    void anEventStreamFlowsAfterItsBodylessRequestWasChecked() {
        var events = gateway(HttpMethod.GET, "/ticks")
                .send(client, port)
                .expectStatus()
                .isOk()
                .returnResult(String.class)
                .getResponseBody();
        StepVerifier.create(events.take(2))
                .assertNext(tick -> assertThat(tick).isEqualTo("tick 0"))
                .assertNext(tick -> assertThat(tick).isEqualTo("tick 1"))
                .expectComplete()
                .verify(Duration.ofSeconds(20));
    }
}
