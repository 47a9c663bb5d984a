package dev.cryptopay.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cryptopay.auth.keys.Ed25519KeyPairs;
import dev.cryptopay.auth.keys.GeneratedKeyPair;
import dev.cryptopay.auth.keys.RsaKeyPairs;
import dev.cryptopay.auth.keys.VerificationKey;
import dev.cryptopay.auth.signature.RequestVerifier;
import dev.cryptopay.auth.signature.VerificationOutcome;
import dev.cryptopay.client.ScriptedServer.Recorded;
import dev.cryptopay.client.ScriptedServer.Reply;
import dev.cryptopay.client.account.model.AccountApiKey;
import dev.cryptopay.client.account.model.SignedUp;
import dev.cryptopay.client.account.model.SignupRequest;
import dev.cryptopay.client.paymentlinks.model.CreatePaymentLink;
import dev.cryptopay.client.paymentlinks.model.PaymentLink;
import java.math.BigDecimal;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The client against a real HTTP server standing in for the gateway: what goes on the wire (signature, idempotency
 * key, retries) and how answers come back (typed models, typed errors). The signatures are checked with the
 * gateway's own verifier.
 */
class CryptoPayClientTest {

    private static final SecureRandom RANDOM = new SecureRandom();
    private static final GeneratedKeyPair ED25519 = Ed25519KeyPairs.generate(RANDOM);
    private static final String LINK_ID = "0b0f8f4e-7a52-4f0b-9a59-3f0f2f3c1d2e";
    private static final String CREATED = "{\"message\":\"Payment link created\",\"data\":{\"id\":\"" + LINK_ID
            + "\",\"payment_name\":\"Order 42\",\"amount\":25.00,\"currency\":\"USDC\",\"payment_status\":\"pending\"}}";
    private static final String RATE_LIMITED = "{\"type\":\"about:blank\",\"title\":\"Too Many Requests\","
            + "\"status\":429,\"code\":\"rate_limited\",\"message\":\"Rate limit exceeded\",\"request_id\":\"req-429\"}";

    private final List<Duration> waits = new ArrayList<>();
    private ScriptedServer server;

    @BeforeEach
    void start() throws Exception {
        server = new ScriptedServer();
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private CryptoPayClient client(String privateKey) {
        return CryptoPayClient.builder()
                .baseUrl(server.baseUrl())
                .apiKey("mk_test_key")
                .privateKey(privateKey)
                .sleeper(waits::add)
                .build();
    }

    @Test
    void aCreateIsSignedOnEveryAttemptAndKeepsItsIdempotencyKeyAcrossRetries() throws Exception {
        server.then(Reply.json(503, "{}"), Reply.json(201, CREATED));

        PaymentLink link = client(ED25519.privateKeyCompact())
                .paymentLinks()
                .createPaymentLink(
                        new CreatePaymentLink()
                                .paymentName("Order 42")
                                .amount(new BigDecimal("25.00"))
                                .currency("USDC"),
                        null)
                .getData();

        assertThat(link.getId()).isEqualTo(UUID.fromString(LINK_ID));
        assertThat(link.getAmount()).isEqualByComparingTo("25.00");
        List<Recorded> requests = server.recorded();
        assertThat(requests).hasSize(2);
        assertThat(requests).allSatisfy(request -> {
            assertThat(request.method()).isEqualTo("POST");
            assertThat(request.pathAndQuery()).isEqualTo("/api/v1/payment_links");
            assertThat(verify(request, ED25519.publicKeyPem())).isEqualTo(VerificationOutcome.OK);
        });
        String key = requests.get(0).header("Idempotency-Key");
        assertThat(key).isNotBlank().isEqualTo(requests.get(1).header("Idempotency-Key"));
        assertThat(requests.get(0).header("X-API-Timestamp"))
                .as("a retry is signed anew, never a replay")
                .isNotEqualTo(requests.get(1).header("X-API-Timestamp"));
        assertThat(requests.get(0).body()).isEqualTo(requests.get(1).body());
        assertThat(new String(requests.get(0).body()))
                .contains("\"payment_name\":\"Order 42\"")
                .doesNotContain("null");
        assertThat(waits).hasSize(1);
    }

    @Test
    void aKeyTheCallerGivesIsSentAsItIs() throws Exception {
        server.then(Reply.json(201, CREATED));

        client(ED25519.privateKeyCompact())
                .paymentLinks()
                .createPaymentLink(
                        new CreatePaymentLink()
                                .paymentName("x")
                                .amount(BigDecimal.ONE)
                                .currency("USDC"),
                        "order-42");

        assertThat(server.recorded().get(0).header("Idempotency-Key")).isEqualTo("order-42");
    }

    @Test
    void theQueryStringIsSignedWithThePath() throws Exception {
        server.then(
                Reply.json(
                        200,
                        "{\"message\":\"ok\",\"data\":{\"data\":[],\"pagination\":{\"current_page\":2,"
                                + "\"per_page\":5,\"total_pages\":1,\"total_records\":0,\"has_next_page\":false,"
                                + "\"has_prev_page\":true},\"filters\":{\"sort_by\":\"created_at\",\"sort_order\":\"desc\"}}}"));

        client(ED25519.privateKeyCompact())
                .paymentLinks()
                .listPaymentLinks(2, 5, null, null, "USDC", null, null, null, null, "a b", null, null);

        Recorded request = server.recorded().get(0);
        assertThat(request.pathAndQuery()).startsWith("/api/v1/payment_links?").contains("page=2", "limit=5");
        RequestVerifier strict = new RequestVerifier(Clock.systemUTC(), Duration.ofMinutes(5), true);
        assertThat(verify(strict, request, ED25519.publicKeyPem())).isEqualTo(VerificationOutcome.OK);
    }

    @Test
    void rsaKeysInPemSignWithRsaPss() throws Exception {
        GeneratedKeyPair rsa = RsaKeyPairs.generate(RANDOM, 2048);
        server.then(Reply.json(200, "{}"));

        client(rsa.privateKeyPem()).account().getAccount();

        assertThat(verify(server.recorded().get(0), rsa.publicKeyPem())).isEqualTo(VerificationOutcome.OK);
    }

    @Test
    void anEd25519KeyInPemSignsLikeItsOneLineForm() throws Exception {
        server.then(Reply.json(200, "{}"));

        client(ED25519.privateKeyPem()).account().getAccount();

        assertThat(verify(server.recorded().get(0), ED25519.publicKeyPem())).isEqualTo(VerificationOutcome.OK);
    }

    @Test
    void aRateLimitedRequestIsSentAgainAfterItsRetryAfter() throws Exception {
        server.then(Reply.problem(429, Map.of("Retry-After", "2"), RATE_LIMITED), Reply.json(200, "{}"));

        client(ED25519.privateKeyCompact()).account().getAccount();

        assertThat(server.recorded()).hasSize(2);
        assertThat(waits).containsExactly(Duration.ofSeconds(2));
    }

    @Test
    void aWaitLongerThanThePolicyAllowsIsThrownWithItsRetryAfter() {
        server.then(Reply.problem(429, Map.of("Retry-After", "120"), RATE_LIMITED));

        assertThatThrownBy(() -> client(ED25519.privateKeyCompact()).account().getAccount())
                .isInstanceOfSatisfying(CryptoPayException.class, e -> {
                    assertThat(e.status()).isEqualTo(429);
                    assertThat(e.code()).isEqualTo("rate_limited");
                    assertThat(e.retryAfter()).contains(Duration.ofSeconds(120));
                    assertThat(e.requestId()).contains("req-429");
                });
        assertThat(server.recorded()).hasSize(1);
        assertThat(waits).isEmpty();
    }

    @Test
    void aPostWithoutIdempotencyIsNotSentAgainAfterAServerError() {
        server.then(Reply.json(503, "{}"), Reply.json(200, "{}"));

        assertThatThrownBy(() -> client(ED25519.privateKeyCompact())
                        .webhookEndpoints()
                        .rotateWebhookEndpointSecret(UUID.randomUUID()))
                .isInstanceOfSatisfying(
                        CryptoPayException.class, e -> assertThat(e.status()).isEqualTo(503));
        assertThat(server.recorded()).hasSize(1);
        assertThat(server.recorded().get(0).header("Idempotency-Key")).isNull();
    }

    @Test
    void aGetGivesUpAfterThePolicysAttempts() {
        server.then(
                new Reply(502, Map.of(), "<html>bad gateway</html>"),
                new Reply(502, Map.of(), "<html>bad gateway</html>"),
                new Reply(502, Map.of("X-Request-Id", "req-502"), "<html>bad gateway</html>"));

        assertThatThrownBy(() -> client(ED25519.privateKeyCompact()).account().getAccount())
                .isInstanceOfSatisfying(CryptoPayException.class, e -> {
                    assertThat(e.code()).isEqualTo("http_502");
                    assertThat(e.getMessage()).contains("bad gateway");
                    assertThat(e.requestId()).contains("req-502");
                });
        assertThat(server.recorded()).hasSize(3);
        assertThat(waits).hasSize(2);
        assertThat(waits.get(1)).isGreaterThan(waits.get(0));
    }

    @Test
    void aProblemBecomesATypedErrorWithEveryRejectedField() {
        server.then(
                Reply.problem(
                        400,
                        Map.of("X-Request-Id", "req-header"),
                        "{\"type\":\"about:blank\",\"title\":\"Bad Request\",\"status\":400,\"detail\":\"Invalid currency\","
                                + "\"code\":\"invalid_currency\",\"message\":\"Invalid currency code\",\"errors\":["
                                + "{\"field\":\"currency\",\"message\":\"Invalid currency code\"}],\"request_id\":\"req-400\"}"));

        assertThatThrownBy(() -> client(ED25519.privateKeyCompact())
                        .paymentLinks()
                        .createPaymentLink(
                                new CreatePaymentLink()
                                        .paymentName("x")
                                        .amount(BigDecimal.ONE)
                                        .currency("XYZ"),
                                null))
                .isInstanceOfSatisfying(CryptoPayException.class, e -> {
                    assertThat(e.status()).isEqualTo(400);
                    assertThat(e.code()).isEqualTo("invalid_currency");
                    assertThat(e.requestId()).contains("req-400");
                    assertThat(e.errors())
                            .containsExactly(new CryptoPayException.FieldError("currency", "Invalid currency code"));
                    assertThat(e.getMessage())
                            .isEqualTo("400 invalid_currency: Invalid currency code (request req-400)");
                });
    }

    @Test
    void publicRoutesCarryNoSignatureHeaders() throws Exception {
        server.then(Reply.json(200, "{\"plans\":[],\"total\":0,\"page\":1,\"page_size\":10,\"total_pages\":0}"));

        client(ED25519.privateKeyCompact()).publicRoutes().listPublicPlans(null, null, null, null);

        Recorded request = server.recorded().get(0);
        assertThat(request.pathAndQuery()).isEqualTo("/api/v1/public/subscriptions/plans");
        assertThat(request.header("X-API-Key")).isNull();
        assertThat(request.header("X-API-Signature")).isNull();
    }

    @Test
    void signUpIsSentUnsignedAndTheMerchantsKeysSigned() throws Exception {
        server.then(
                Reply.json(
                        201,
                        "{\"merchant_id\":\"" + LINK_ID + "\",\"name\":\"Acme\",\"email\":\"ops@acme.test\","
                                + "\"api_key\":\"mk_test_new\",\"publishable_key\":\"pk_test_new\",\"mode\":\"test\"}"),
                Reply.json(
                        200,
                        "{\"keys\":[{\"id\":\"" + LINK_ID + "\",\"api_key_prefix\":\"mk_test_ABCD\","
                                + "\"mode\":\"test\",\"algorithm\":\"ed25519\",\"status\":\"active\","
                                + "\"current\":true,\"created_at\":\"2026-11-24T10:00:00Z\",\"last_used_at\":null,"
                                + "\"revoked_at\":null}],\"publishable_keys\":[],\"total\":1,\"page\":1,"
                                + "\"page_size\":20,\"total_pages\":1}"));
        CryptoPayClient client = client(ED25519.privateKeyCompact());

        SignedUp created = client.signup()
                .signUp(new SignupRequest().name("Acme").email("ops@acme.test").publicKey(ED25519.publicKeyPem()));
        List<AccountApiKey> keys = Pages.stream(page -> client.account().listAccountKeys(page, 20), Pages.ACCOUNT_KEYS)
                .toList();

        assertThat(created.getApiKey()).isEqualTo("mk_test_new");
        assertThat(keys)
                .singleElement()
                .satisfies(key -> assertThat(key.getCurrent()).isTrue());
        Recorded signUp = server.recorded().get(0);
        assertThat(signUp.pathAndQuery()).isEqualTo("/api/v1/signup");
        assertThat(signUp.header("X-API-Key")).isNull();
        assertThat(signUp.header("X-API-Signature")).isNull();
        Recorded listed = server.recorded().get(1);
        assertThat(listed.pathAndQuery()).isEqualTo("/api/v1/account/keys?page=1&page_size=20");
        assertThat(verify(listed, ED25519.publicKeyPem())).isEqualTo(VerificationOutcome.OK);
    }

    @Test
    void theCheckoutIsReachedAtTheGatewaysRoot() throws Exception {
        server.then(Reply.json(
                200,
                "{\"state\":\"awaiting_payment\",\"title\":\"Awaiting payment\","
                        + "\"detail\":\"\",\"terminal\":false,\"amount_due\":\"25\",\"currency\":\"USDC\","
                        + "\"expires_at\":\"2026-11-24T10:00:00Z\"}"));

        String state = client(ED25519.privateKeyCompact())
                .checkout()
                .getCheckoutStatus(UUID.fromString(LINK_ID))
                .getState()
                .getValue();

        assertThat(state).isEqualTo("awaiting_payment");
        assertThat(server.recorded().get(0).pathAndQuery())
                .isEqualTo("/checkout/payment_link/status?payment_id=" + LINK_ID);
    }

    @Test
    void aMalformedPrivateKeyIsRefusedWhenTheClientIsBuilt() {
        assertThatThrownBy(() -> client("Ed25519:not-base64!")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> CryptoPayClient.builder()
                        .baseUrl(server.baseUrl())
                        .apiKey("mk_test_key")
                        .build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("together");
    }

    private static VerificationOutcome verify(Recorded request, String publicKeyPem) {
        return verify(RequestVerifier.withDefaults(Clock.systemUTC()), request, publicKeyPem);
    }

    private static VerificationOutcome verify(RequestVerifier verifier, Recorded request, String publicKeyPem) {
        String pathAndQuery = request.pathAndQuery().substring("/api/v1".length());
        int question = pathAndQuery.indexOf('?');
        return verifier.verify(
                VerificationKey.parse(publicKeyPem),
                request.method(),
                question < 0 ? pathAndQuery : pathAndQuery.substring(0, question),
                question < 0 ? null : pathAndQuery.substring(question + 1),
                request.header("X-API-Timestamp"),
                request.header("X-API-Signature"),
                request.body());
    }
}
