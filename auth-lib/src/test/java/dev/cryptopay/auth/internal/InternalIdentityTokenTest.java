package dev.cryptopay.auth.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cryptopay.auth.Mode;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.NullAndEmptySource;
import org.junit.jupiter.params.provider.ValueSource;

/** The v2 token: known answers computed with the OpenSSL CLI, and everything it binds. */
class InternalIdentityTokenTest {

    static final String GATEWAY_SECRET = "test-only-internal-secret-0123456789";
    static final String WATCHER_SECRET = "test-only-chain-watcher-secret-0123456789";
    static final InternalIdentityToken GATEWAY =
            InternalIdentityToken.fromSecret(InternalCallers.GATEWAY, GATEWAY_SECRET);
    static final InternalIdentityToken WATCHER =
            InternalIdentityToken.fromSecret(InternalCallers.CHAIN_WATCHER, WATCHER_SECRET);
    static final InternalTokenVerifier VERIFIER = new InternalTokenVerifier(List.of(GATEWAY, WATCHER));

    static final MerchantIdentity MERCHANT =
            new MerchantIdentity(UUID.fromString("3f2c1a9e-8b7d-4c6e-9f01-23456789abcd"), Mode.LIVE);
    static final Instant ISSUED_AT = Instant.parse("2026-01-01T12:00:00Z"); // 1767268800
    static final Duration MAX_AGE = InternalIdentityToken.DEFAULT_MAX_AGE;
    static final byte[] BODY = "{\"amount\":\"10.00\",\"currency\":\"USD\"}".getBytes(StandardCharsets.UTF_8);
    static final InternalRequest CREATE = InternalRequest.of("POST", "/payment_links", null, BODY);
    static final InternalRequest LIST = InternalRequest.of("GET", "/payment_links", "page=2&q=caf%C3%A9", null);

    /**
     * Computed independently with the OpenSSL CLI:
     * <pre>
     * H=$(printf '%s' '{"amount":"10.00","currency":"USD"}' | openssl dgst -sha256 -r | cut -d' ' -f1)
     * printf 'v2\n%s\n%s\n%s\n%s\n%s\n%s\n%s\n%s' gateway 3f2c1a9e-8b7d-4c6e-9f01-23456789abcd live POST \
     *     /payment_links '' "$H" 1767268800 \
     *   | openssl dgst -sha256 -hmac 'test-only-internal-secret-0123456789' -binary \
     *   | openssl base64 -A | tr '+/' '-_' | tr -d '='
     * </pre>
     */
    static final String OPENSSL_GATEWAY_TOKEN = "v2.gateway.1767268800._mYDZV989SmsIETNGQvmI98fqS7avo9aF_5P8UdYbrc";

    /**
     * No merchant, a query, no body: {@code printf 'v2\n%s\n%s\n%s\n%s\n%s\n%s\n%s\n%s' chain-watcher '' '' GET
     * /payment_links 'page=2&q=caf%C3%A9' <SHA-256 hex of nothing> 1767268800 | openssl dgst -sha256 -hmac
     * 'test-only-chain-watcher-secret-0123456789' ...}.
     */
    static final String OPENSSL_WATCHER_TOKEN =
            "v2.chain-watcher.1767268800.uKQVHd6gLXCmVvFuEdHUeyQHVjbozMZzdwpgtAXSCvs";

    @Test
    void issuesTheDocumentedFormat() {
        assertThat(GATEWAY.issue(MERCHANT, CREATE, ISSUED_AT)).isEqualTo(OPENSSL_GATEWAY_TOKEN);
        assertThat(WATCHER.issue(null, LIST, ISSUED_AT)).isEqualTo(OPENSSL_WATCHER_TOKEN);
    }

    @Test
    void hashesTheBodyWithSha256AndNoBodyAsNothing() {
        assertThat(CREATE.bodySha256()).isEqualTo("ea6a5c95109ae6382ed7a3f35bd90f1236e4d6a92f030086d5b6df02b1a4ac8f");
        assertThat(LIST.bodySha256()).isEqualTo("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
        assertThat(InternalRequest.of("GET", "/", "", new byte[0]))
                .isEqualTo(new InternalRequest("GET", "/", null, LIST.bodySha256()));
    }

    @Test
    void truncatesIssuedAtToWholeSeconds() {
        assertThat(GATEWAY.issue(MERCHANT, CREATE, ISSUED_AT.plusMillis(999))).isEqualTo(OPENSSL_GATEWAY_TOKEN);
    }

    @Test
    void verifiesEachCallersTokenAndNamesTheCaller() {
        assertThat(verify(OPENSSL_GATEWAY_TOKEN, MERCHANT, CREATE, ISSUED_AT))
                .isEqualTo(new InternalTokenVerification(InternalTokenOutcome.VALID, "gateway"));
        assertThat(verify(OPENSSL_WATCHER_TOKEN, null, LIST, ISSUED_AT))
                .isEqualTo(new InternalTokenVerification(InternalTokenOutcome.VALID, "chain-watcher"));
    }

    @Test
    void rejectsAChangedQueryString() {
        assertThat(outcome(OPENSSL_WATCHER_TOKEN, null, InternalRequest.of("GET", "/payment_links", "page=3", null)))
                .isEqualTo(InternalTokenOutcome.BAD_MAC);
        assertThat(outcome(OPENSSL_WATCHER_TOKEN, null, InternalRequest.of("GET", "/payment_links", "", null)))
                .isEqualTo(InternalTokenOutcome.BAD_MAC);
        assertThat(outcome(OPENSSL_GATEWAY_TOKEN, MERCHANT, InternalRequest.of("POST", "/payment_links", "x", BODY)))
                .as("a query added to a request that had none")
                .isEqualTo(InternalTokenOutcome.BAD_MAC);
    }

    @Test
    void comparesTheQueryExactlyAsSentNotDecoded() {
        assertThat(outcome(
                        OPENSSL_WATCHER_TOKEN,
                        null,
                        InternalRequest.of("GET", "/payment_links", "page=2&q=café", null)))
                .isEqualTo(InternalTokenOutcome.BAD_MAC);
    }

    @Test
    void rejectsAChangedBody() {
        byte[] changed = "{\"amount\":\"99.00\",\"currency\":\"USD\"}".getBytes(StandardCharsets.UTF_8);
        assertThat(outcome(OPENSSL_GATEWAY_TOKEN, MERCHANT, InternalRequest.of("POST", "/payment_links", "", changed)))
                .isEqualTo(InternalTokenOutcome.BAD_MAC);
        assertThat(outcome(OPENSSL_GATEWAY_TOKEN, MERCHANT, InternalRequest.of("POST", "/payment_links", "", null)))
                .as("body dropped")
                .isEqualTo(InternalTokenOutcome.BAD_MAC);
    }

    @Test
    void rejectsAnotherPathMethodMerchantOrMode() {
        assertThat(outcome(
                        OPENSSL_GATEWAY_TOKEN,
                        MERCHANT,
                        new InternalRequest("POST", "/subscriptions", "", CREATE.bodySha256())))
                .isEqualTo(InternalTokenOutcome.BAD_MAC);
        assertThat(outcome(OPENSSL_GATEWAY_TOKEN, MERCHANT, InternalRequest.of("PUT", "/payment_links", "", BODY)))
                .isEqualTo(InternalTokenOutcome.BAD_MAC);
        MerchantIdentity other =
                new MerchantIdentity(UUID.fromString("3f2c1a9e-8b7d-4c6e-9f01-23456789abce"), Mode.LIVE);
        assertThat(outcome(OPENSSL_GATEWAY_TOKEN, other, CREATE)).isEqualTo(InternalTokenOutcome.BAD_MAC);
        assertThat(outcome(OPENSSL_GATEWAY_TOKEN, new MerchantIdentity(MERCHANT.merchantId(), Mode.TEST), CREATE))
                .isEqualTo(InternalTokenOutcome.BAD_MAC);
        assertThat(outcome(OPENSSL_GATEWAY_TOKEN, null, CREATE)).isEqualTo(InternalTokenOutcome.BAD_MAC);
        assertThat(outcome(OPENSSL_WATCHER_TOKEN, MERCHANT, LIST))
                .as("a merchant added to a call made without one")
                .isEqualTo(InternalTokenOutcome.BAD_MAC);
    }

    @Test
    void aCallerCannotSignAsAnother() {
        String renamed = OPENSSL_WATCHER_TOKEN.replace("v2.chain-watcher.", "v2.gateway.");
        assertThat(outcome(renamed, null, LIST)).isEqualTo(InternalTokenOutcome.BAD_MAC);
        InternalIdentityToken watcherKeyAsGateway =
                InternalIdentityToken.fromSecret(InternalCallers.GATEWAY, WATCHER_SECRET);
        assertThat(outcome(watcherKeyAsGateway.issue(MERCHANT, CREATE, ISSUED_AT), MERCHANT, CREATE))
                .isEqualTo(InternalTokenOutcome.BAD_MAC);
    }

    @Test
    void refusesCallersItHoldsNoSecretFor() {
        InternalTokenVerifier gatewayOnly = new InternalTokenVerifier(List.of(GATEWAY));
        assertThat(gatewayOnly.verify(OPENSSL_WATCHER_TOKEN, null, LIST, ISSUED_AT, MAX_AGE))
                .isEqualTo(new InternalTokenVerification(InternalTokenOutcome.UNKNOWN_CALLER, "chain-watcher"));
        assertThat(new InternalTokenVerifier(List.of()).precheck(OPENSSL_GATEWAY_TOKEN, ISSUED_AT, MAX_AGE))
                .extracting(InternalTokenVerification::outcome)
                .isEqualTo(InternalTokenOutcome.UNKNOWN_CALLER);
    }

    @Test
    void rejectsTamperedIssuedAt() {
        String tampered = OPENSSL_GATEWAY_TOKEN.replace(".1767268800.", ".1767268801.");
        assertThat(outcome(tampered, MERCHANT, CREATE)).isEqualTo(InternalTokenOutcome.BAD_MAC);
    }

    @Test
    void livesTenSecondsByDefault() {
        assertThat(verify(OPENSSL_GATEWAY_TOKEN, MERCHANT, CREATE, ISSUED_AT.plusSeconds(10))
                        .outcome())
                .isEqualTo(InternalTokenOutcome.VALID);
        assertThat(verify(OPENSSL_GATEWAY_TOKEN, MERCHANT, CREATE, ISSUED_AT.plusSeconds(11))
                        .outcome())
                .isEqualTo(InternalTokenOutcome.EXPIRED);
        assertThat(VERIFIER.precheck(OPENSSL_GATEWAY_TOKEN, ISSUED_AT.plusSeconds(11), MAX_AGE)
                        .outcome())
                .isEqualTo(InternalTokenOutcome.EXPIRED);
    }

    @Test
    void acceptsTwoSecondsOfClockSkewIntoTheFuture() {
        assertThat(verify(OPENSSL_GATEWAY_TOKEN, MERCHANT, CREATE, ISSUED_AT.minusSeconds(2))
                        .outcome())
                .isEqualTo(InternalTokenOutcome.VALID);
        assertThat(verify(OPENSSL_GATEWAY_TOKEN, MERCHANT, CREATE, ISSUED_AT.minusSeconds(3))
                        .outcome())
                .isEqualTo(InternalTokenOutcome.NOT_YET_VALID);
    }

    @Test
    void honoursCustomMaxAge() {
        assertThat(VERIFIER.verify(
                                OPENSSL_GATEWAY_TOKEN,
                                MERCHANT,
                                CREATE,
                                ISSUED_AT.plusSeconds(4),
                                Duration.ofSeconds(3))
                        .outcome())
                .isEqualTo(InternalTokenOutcome.EXPIRED);
    }

    @Test
    void precheckLeavesOnlyTheMacToCheck() {
        assertThat(VERIFIER.precheck(OPENSSL_GATEWAY_TOKEN.replace("._mY", "._mZ"), ISSUED_AT, MAX_AGE))
                .isEqualTo(new InternalTokenVerification(InternalTokenOutcome.VALID, "gateway"));
    }

    @ParameterizedTest
    @NullAndEmptySource
    @ValueSource(strings = {"  ", "\t"})
    void reportsMissingToken(String token) {
        assertThat(outcome(token, MERCHANT, CREATE)).isEqualTo(InternalTokenOutcome.MISSING);
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "garbage",
                // the previous version's format is refused outright
                "v1.1767268800.k7o0fEH9qXUVREUHoUJ3ofJCsR6tkaEdTMhgjqXj7dg",
                "v2.1767268800._mYDZV989SmsIETNGQvmI98fqS7avo9aF_5P8UdYbrc",
                "v3.gateway.1767268800._mYDZV989SmsIETNGQvmI98fqS7avo9aF_5P8UdYbrc",
                "V2.gateway.1767268800._mYDZV989SmsIETNGQvmI98fqS7avo9aF_5P8UdYbrc",
                "v2.Gateway.1767268800._mYDZV989SmsIETNGQvmI98fqS7avo9aF_5P8UdYbrc",
                "v2..1767268800._mYDZV989SmsIETNGQvmI98fqS7avo9aF_5P8UdYbrc",
                "v2.gate way.1767268800._mYDZV989SmsIETNGQvmI98fqS7avo9aF_5P8UdYbrc",
                "v2.gateway.abc._mYDZV989SmsIETNGQvmI98fqS7avo9aF_5P8UdYbrc",
                "v2.gateway.-1767268800._mYDZV989SmsIETNGQvmI98fqS7avo9aF_5P8UdYbrc",
                "v2.gateway.01767268800._mYDZV989SmsIETNGQvmI98fqS7avo9aF_5P8UdYbrc",
                "v2.gateway.99999999999999999999999._mYDZV989SmsIETNGQvmI98fqS7avo9aF_5P8UdYbrc",
                "v2.gateway.1767268800._mYDZV989SmsIETNGQvmI98fqS7avo9aF_5P8UdYbr", // MAC one char short
                "v2.gateway.1767268800._mYDZV989SmsIETNGQvmI98fqS7avo9aF_5P8UdYbrc=", // padded
                "v2.gateway.1767268800.+mYDZV989SmsIETNGQvmI98fqS7avo9aF_5P8UdYbrc", // standard Base64 alphabet
                "v2.gateway.1767268800._mYDZV989SmsIETNGQvmI98fqS7avo9aF_5P8UdYbrc.extra",
                " v2.gateway.1767268800._mYDZV989SmsIETNGQvmI98fqS7avo9aF_5P8UdYbrc",
            })
    void reportsMalformedToken(String token) {
        assertThat(outcome(token, MERCHANT, CREATE)).isEqualTo(InternalTokenOutcome.MALFORMED);
    }

    @Test
    void refusesShortSecretsMalformedCallersAndTwoKeysForOneCaller() {
        assertThatThrownBy(() -> new InternalIdentityToken("gateway", new byte[31]))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("at least 32 bytes");
        assertThatThrownBy(() -> InternalIdentityToken.fromSecret("gateway", "too-short"))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> InternalIdentityToken.fromSecret("Chain.Watcher", GATEWAY_SECRET))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("Caller id");
        assertThatThrownBy(() -> new InternalTokenVerifier(
                        List.of(GATEWAY, InternalIdentityToken.fromSecret("gateway", WATCHER_SECRET))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("gateway");
        assertThat(new InternalIdentityToken("gateway", new byte[32]).issue(null, LIST, ISSUED_AT))
                .startsWith("v2.gateway.1767268800.");
    }

    @Test
    void refusesRequestsNoRequestLineCanCarry() {
        assertThatThrownBy(() -> InternalRequest.of("POST", "/a\n/b", "", null))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> InternalRequest.of("GET", "/a", "x=1\r\n", null))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> InternalRequest.of("get", "/a", "", null))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new InternalRequest("GET", "/a", "", "ABC"))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void copiesTheSecretAndNeverPrintsIt() {
        byte[] secret = GATEWAY_SECRET.getBytes(StandardCharsets.UTF_8);
        InternalIdentityToken tokens = new InternalIdentityToken("gateway", secret);
        secret[0] ^= 0x01;
        assertThat(tokens.issue(MERCHANT, CREATE, ISSUED_AT)).isEqualTo(OPENSSL_GATEWAY_TOKEN);
        assertThat(tokens.toString()).doesNotContain(GATEWAY_SECRET).contains("gateway");
    }

    @Test
    void headerNamesAndCallerIdsAreStable() {
        assertThat(InternalHeaders.MERCHANT_ID).isEqualTo("X-Merchant-Id");
        assertThat(InternalHeaders.MERCHANT_MODE).isEqualTo("X-Merchant-Mode");
        assertThat(InternalHeaders.REQUEST_ID).isEqualTo("X-Request-Id");
        assertThat(InternalHeaders.INTERNAL_AUTH).isEqualTo("X-Internal-Auth");
        assertThat(InternalCallers.GATEWAY).isEqualTo("gateway");
        assertThat(InternalCallers.CHAIN_WATCHER).isEqualTo("chain-watcher");
    }

    private static InternalTokenVerification verify(
            String token, MerchantIdentity identity, InternalRequest request, Instant now) {
        return VERIFIER.verify(token, identity, request, now, MAX_AGE);
    }

    private static InternalTokenOutcome outcome(String token, MerchantIdentity identity, InternalRequest request) {
        return verify(token, identity, request, ISSUED_AT).outcome();
    }
}
