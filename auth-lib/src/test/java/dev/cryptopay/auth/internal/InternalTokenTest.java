package dev.cryptopay.auth.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cryptopay.auth.Mode;
import dev.cryptopay.auth.keys.RsaKeyPairs;
import dev.cryptopay.auth.keys.SigningKey;
import dev.cryptopay.auth.keys.VerificationKey;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.NullAndEmptySource;
import org.junit.jupiter.params.provider.ValueSource;

/** The v3 token: known answers computed with the OpenSSL CLI, and everything it binds. */
class InternalTokenTest {

    // Made with: openssl genpkey -algorithm ed25519 | openssl pkey -outform DER | base64 -w0 (and -pubout for the
    // public key). Test keys only: committed, so worthless.
    static final String GATEWAY_PRIVATE = "Ed25519:MC4CAQAwBQYDK2VwBCIEIMng4EP39qBSiHEWOJkfkWbJjjaq4mxLf/L6N4yovBYY";
    static final String GATEWAY_PUBLIC = "MCowBQYDK2VwAyEATOF/9u6dwrxmRybC5/uRmk5INQtjR1AvUgkzfAX9LE0=";
    static final String WATCHER_PRIVATE = "Ed25519:MC4CAQAwBQYDK2VwBCIEIMdQfkiO7sLghxwsfWSCCXAC8zsq6A4NYzPHjb8ZU3wL";
    static final String WATCHER_PUBLIC = "MCowBQYDK2VwAyEA7C86LnhejTgNMcTDeLkV5bm9ej1K8J8x25o2mGj4XsY=";
    static final String NEXT_PRIVATE = "Ed25519:MC4CAQAwBQYDK2VwBCIEIEWSh/Ydklt/hksBlI7+7BWN0W2bxQkfD+kb5OUWoy1C";
    static final String NEXT_PUBLIC = "MCowBQYDK2VwAyEAxdMawYB2W+7FimLpVb6hqFA7hQTsSlHWC7vj5u+8gUg=";

    static final InternalTokenSigner GATEWAY = InternalTokenSigner.parse(InternalCallers.GATEWAY, GATEWAY_PRIVATE);
    static final InternalTokenSigner WATCHER =
            InternalTokenSigner.parse(InternalCallers.CHAIN_WATCHER, WATCHER_PRIVATE);
    static final Map<String, List<VerificationKey>> BOTH = Map.of(
            InternalCallers.GATEWAY,
            List.of(VerificationKey.parse(GATEWAY_PUBLIC)),
            InternalCallers.CHAIN_WATCHER,
            List.of(VerificationKey.parse(WATCHER_PUBLIC)));
    static final InternalTokenVerifier PAYMENT_LINKS =
            new InternalTokenVerifier(InternalCallers.PAYMENT_LINKS_SERVICE, BOTH);
    static final InternalTokenVerifier SUBSCRIPTIONS =
            new InternalTokenVerifier(InternalCallers.SUBSCRIPTIONS_SERVICE, BOTH);

    static final MerchantIdentity MERCHANT =
            new MerchantIdentity(UUID.fromString("3f2c1a9e-8b7d-4c6e-9f01-23456789abcd"), Mode.LIVE);
    static final MerchantCredential API_KEY = MerchantCredential.API_KEY;
    static final Instant ISSUED_AT = Instant.parse("2026-01-01T12:00:00Z"); // 1767268800
    static final Duration MAX_AGE = InternalTokenSigner.DEFAULT_MAX_AGE;
    static final byte[] BODY = "{\"amount\":\"10.00\",\"currency\":\"USD\"}".getBytes(StandardCharsets.UTF_8);
    static final InternalRequest CREATE = InternalRequest.of("POST", "/payment_links", null, BODY);
    static final InternalRequest LIST = InternalRequest.of("GET", "/payment_links", "page=2&q=caf%C3%A9", null);

    /**
     * Computed independently with the OpenSSL CLI (Ed25519 signatures are deterministic):
     * <pre>
     * H=$(printf '%s' '{"amount":"10.00","currency":"USD"}' | openssl dgst -sha256 -r | cut -d' ' -f1)
     * printf 'v3\n%s\n%s\n%s\n%s\n%s\n%s\n%s\n%s\n%s\n%s' gateway payment-links-service \
     *     3f2c1a9e-8b7d-4c6e-9f01-23456789abcd live api_key POST /payment_links '' "$H" 1767268800 \
     *   | openssl pkeyutl -sign -rawin -inkey gateway.pem -in /dev/stdin \
     *   | openssl base64 -A | tr '+/' '-_' | tr -d '='
     * </pre>
     */
    static final String OPENSSL_GATEWAY_TOKEN = "v3.gateway.payment-links-service.1767268800."
            + "MIagXweZOJnhRWCeFwXSlQd8P8q5Otyx-Aj9U9iDUUQ8761u2Wm3XUmcqnZ4UTHI5bE-5NHH2cA3S3_1oUxlDg";

    /**
     * No merchant, a query, no body, for subscriptions-service: {@code printf 'v3\n%s\n…' chain-watcher
     * subscriptions-service '' '' '' GET /payment_links 'page=2&q=caf%C3%A9' <SHA-256 hex of nothing> 1767268800 |
     * openssl pkeyutl -sign …}.
     */
    static final String OPENSSL_WATCHER_TOKEN = "v3.chain-watcher.subscriptions-service.1767268800."
            + "TVRIN2i-w8CdhQQ1nwAN1DD-yo-bEiVdEbBg8X-dN4o6yOfqFCcEegA3WBhE23Ny7PfxP6C9ndABx880NW0eAw";

    @Test
    void issuesTheDocumentedFormat() {
        assertThat(GATEWAY.issue(InternalCallers.PAYMENT_LINKS_SERVICE, MERCHANT, API_KEY, CREATE, ISSUED_AT))
                .isEqualTo(OPENSSL_GATEWAY_TOKEN);
        assertThat(WATCHER.issue(InternalCallers.SUBSCRIPTIONS_SERVICE, LIST, ISSUED_AT))
                .isEqualTo(OPENSSL_WATCHER_TOKEN);
        assertThat(GATEWAY.verificationKey().toBase64()).isEqualTo(GATEWAY_PUBLIC);
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
        assertThat(GATEWAY.issue(
                        InternalCallers.PAYMENT_LINKS_SERVICE, MERCHANT, API_KEY, CREATE, ISSUED_AT.plusMillis(999)))
                .isEqualTo(OPENSSL_GATEWAY_TOKEN);
    }

    @Test
    void verifiesEachCallersTokenAndNamesTheCaller() {
        assertThat(verify(OPENSSL_GATEWAY_TOKEN, ISSUED_AT))
                .isEqualTo(new InternalTokenVerification(InternalTokenOutcome.VALID, "gateway"));
        assertThat(SUBSCRIPTIONS.verify(OPENSSL_WATCHER_TOKEN, null, null, LIST, ISSUED_AT, MAX_AGE))
                .isEqualTo(new InternalTokenVerification(InternalTokenOutcome.VALID, "chain-watcher"));
    }

    @Test
    void rejectsAChangedQueryString() {
        assertThat(watcherOutcome(null, InternalRequest.of("GET", "/payment_links", "page=3", null)))
                .isEqualTo(InternalTokenOutcome.BAD_SIGNATURE);
        assertThat(watcherOutcome(null, InternalRequest.of("GET", "/payment_links", "", null)))
                .isEqualTo(InternalTokenOutcome.BAD_SIGNATURE);
        assertThat(outcome(
                        OPENSSL_GATEWAY_TOKEN,
                        MERCHANT,
                        API_KEY,
                        InternalRequest.of("POST", "/payment_links", "x", BODY)))
                .as("a query added to a request that had none")
                .isEqualTo(InternalTokenOutcome.BAD_SIGNATURE);
    }

    @Test
    void comparesTheQueryExactlyAsSentNotDecoded() {
        assertThat(watcherOutcome(null, InternalRequest.of("GET", "/payment_links", "page=2&q=café", null)))
                .isEqualTo(InternalTokenOutcome.BAD_SIGNATURE);
    }

    @Test
    void rejectsAChangedBody() {
        byte[] changed = "{\"amount\":\"99.00\",\"currency\":\"USD\"}".getBytes(StandardCharsets.UTF_8);
        assertThat(outcome(
                        OPENSSL_GATEWAY_TOKEN,
                        MERCHANT,
                        API_KEY,
                        InternalRequest.of("POST", "/payment_links", "", changed)))
                .isEqualTo(InternalTokenOutcome.BAD_SIGNATURE);
        assertThat(outcome(
                        OPENSSL_GATEWAY_TOKEN,
                        MERCHANT,
                        API_KEY,
                        InternalRequest.of("POST", "/payment_links", "", null)))
                .as("body dropped")
                .isEqualTo(InternalTokenOutcome.BAD_SIGNATURE);
    }

    @Test
    void rejectsAnotherPathMethodMerchantModeOrCredential() {
        assertThat(outcome(
                        OPENSSL_GATEWAY_TOKEN,
                        MERCHANT,
                        API_KEY,
                        new InternalRequest("POST", "/subscriptions", "", CREATE.bodySha256())))
                .isEqualTo(InternalTokenOutcome.BAD_SIGNATURE);
        assertThat(outcome(
                        OPENSSL_GATEWAY_TOKEN,
                        MERCHANT,
                        API_KEY,
                        InternalRequest.of("PUT", "/payment_links", "", BODY)))
                .isEqualTo(InternalTokenOutcome.BAD_SIGNATURE);
        MerchantIdentity other =
                new MerchantIdentity(UUID.fromString("3f2c1a9e-8b7d-4c6e-9f01-23456789abce"), Mode.LIVE);
        assertThat(outcome(OPENSSL_GATEWAY_TOKEN, other, API_KEY, CREATE))
                .isEqualTo(InternalTokenOutcome.BAD_SIGNATURE);
        assertThat(outcome(
                        OPENSSL_GATEWAY_TOKEN, new MerchantIdentity(MERCHANT.merchantId(), Mode.TEST), API_KEY, CREATE))
                .isEqualTo(InternalTokenOutcome.BAD_SIGNATURE);
        assertThat(outcome(OPENSSL_GATEWAY_TOKEN, MERCHANT, MerchantCredential.PUBLISHABLE_KEY, CREATE))
                .as("an API key's call passed off as a publishable key's, or the other way round")
                .isEqualTo(InternalTokenOutcome.BAD_SIGNATURE);
        assertThat(outcome(OPENSSL_GATEWAY_TOKEN, MERCHANT, null, CREATE))
                .isEqualTo(InternalTokenOutcome.BAD_SIGNATURE);
        assertThat(outcome(OPENSSL_GATEWAY_TOKEN, null, null, CREATE)).isEqualTo(InternalTokenOutcome.BAD_SIGNATURE);
        assertThat(watcherOutcome(MERCHANT, LIST))
                .as("a merchant added to a call made without one")
                .isEqualTo(InternalTokenOutcome.BAD_SIGNATURE);
    }

    @Test
    void aTokenIsForOneServiceOnly() {
        // payment-links-service's token, passed on by it to subscriptions-service: refused before any signature.
        assertThat(SUBSCRIPTIONS.verify(OPENSSL_GATEWAY_TOKEN, MERCHANT, API_KEY, CREATE, ISSUED_AT, MAX_AGE))
                .isEqualTo(new InternalTokenVerification(InternalTokenOutcome.WRONG_AUDIENCE, "gateway"));
        assertThat(SUBSCRIPTIONS
                        .precheck(OPENSSL_GATEWAY_TOKEN, ISSUED_AT, MAX_AGE)
                        .outcome())
                .isEqualTo(InternalTokenOutcome.WRONG_AUDIENCE);
        // The audience renamed in the token: the signature covers it.
        String readdressed = OPENSSL_GATEWAY_TOKEN.replace(".payment-links-service.", ".subscriptions-service.");
        assertThat(SUBSCRIPTIONS
                        .verify(readdressed, MERCHANT, API_KEY, CREATE, ISSUED_AT, MAX_AGE)
                        .outcome())
                .isEqualTo(InternalTokenOutcome.BAD_SIGNATURE);
    }

    @Test
    void aCallerCannotSignAsAnotherAndAReceiverCannotSignAtAll() {
        String renamed = OPENSSL_WATCHER_TOKEN.replace("v3.chain-watcher.", "v3.gateway.");
        assertThat(SUBSCRIPTIONS
                        .verify(renamed, null, null, LIST, ISSUED_AT, MAX_AGE)
                        .outcome())
                .isEqualTo(InternalTokenOutcome.BAD_SIGNATURE);
        InternalTokenSigner watcherKeyAsGateway = InternalTokenSigner.parse(InternalCallers.GATEWAY, WATCHER_PRIVATE);
        assertThat(outcome(
                        watcherKeyAsGateway.issue(
                                InternalCallers.PAYMENT_LINKS_SERVICE, MERCHANT, API_KEY, CREATE, ISSUED_AT),
                        MERCHANT,
                        API_KEY,
                        CREATE))
                .isEqualTo(InternalTokenOutcome.BAD_SIGNATURE);
        // What a receiver holds (the callers' public keys) cannot be made into a signer.
        assertThatThrownBy(() -> InternalTokenSigner.parse(InternalCallers.GATEWAY, GATEWAY_PUBLIC))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageNotContaining(GATEWAY_PUBLIC);
    }

    @Test
    void acceptsEitherKeyOfACallerDuringARotation() {
        InternalTokenSigner next = InternalTokenSigner.parse(InternalCallers.GATEWAY, NEXT_PRIVATE);
        InternalTokenVerifier rotating = new InternalTokenVerifier(
                InternalCallers.PAYMENT_LINKS_SERVICE,
                Map.of(
                        InternalCallers.GATEWAY,
                        List.of(VerificationKey.parse(GATEWAY_PUBLIC), VerificationKey.parse(NEXT_PUBLIC))));
        String signedWithNext = next.issue(InternalCallers.PAYMENT_LINKS_SERVICE, MERCHANT, API_KEY, CREATE, ISSUED_AT);
        assertThat(rotating.verify(OPENSSL_GATEWAY_TOKEN, MERCHANT, API_KEY, CREATE, ISSUED_AT, MAX_AGE)
                        .outcome())
                .isEqualTo(InternalTokenOutcome.VALID);
        assertThat(rotating.verify(signedWithNext, MERCHANT, API_KEY, CREATE, ISSUED_AT, MAX_AGE)
                        .outcome())
                .isEqualTo(InternalTokenOutcome.VALID);
        assertThat(outcome(signedWithNext, MERCHANT, API_KEY, CREATE))
                .as("before the receiver holds the next key")
                .isEqualTo(InternalTokenOutcome.BAD_SIGNATURE);
    }

    @Test
    void refusesCallersItHoldsNoKeyFor() {
        InternalTokenVerifier gatewayOnly = new InternalTokenVerifier(
                InternalCallers.SUBSCRIPTIONS_SERVICE,
                Map.of(InternalCallers.GATEWAY, List.of(VerificationKey.parse(GATEWAY_PUBLIC))));
        assertThat(gatewayOnly.verify(OPENSSL_WATCHER_TOKEN, null, null, LIST, ISSUED_AT, MAX_AGE))
                .isEqualTo(new InternalTokenVerification(InternalTokenOutcome.UNKNOWN_CALLER, "chain-watcher"));
        assertThat(new InternalTokenVerifier(InternalCallers.PAYMENT_LINKS_SERVICE, Map.of())
                        .precheck(OPENSSL_GATEWAY_TOKEN, ISSUED_AT, MAX_AGE))
                .extracting(InternalTokenVerification::outcome)
                .isEqualTo(InternalTokenOutcome.UNKNOWN_CALLER);
    }

    @Test
    void rejectsTamperedIssuedAt() {
        String tampered = OPENSSL_GATEWAY_TOKEN.replace(".1767268800.", ".1767268801.");
        assertThat(outcome(tampered, MERCHANT, API_KEY, CREATE)).isEqualTo(InternalTokenOutcome.BAD_SIGNATURE);
    }

    @Test
    void livesTenSecondsByDefault() {
        assertThat(verify(OPENSSL_GATEWAY_TOKEN, ISSUED_AT.plusSeconds(10)).outcome())
                .isEqualTo(InternalTokenOutcome.VALID);
        assertThat(verify(OPENSSL_GATEWAY_TOKEN, ISSUED_AT.plusSeconds(11)).outcome())
                .isEqualTo(InternalTokenOutcome.EXPIRED);
        assertThat(PAYMENT_LINKS
                        .precheck(OPENSSL_GATEWAY_TOKEN, ISSUED_AT.plusSeconds(11), MAX_AGE)
                        .outcome())
                .isEqualTo(InternalTokenOutcome.EXPIRED);
    }

    @Test
    void acceptsTwoSecondsOfClockSkewIntoTheFuture() {
        assertThat(verify(OPENSSL_GATEWAY_TOKEN, ISSUED_AT.minusSeconds(2)).outcome())
                .isEqualTo(InternalTokenOutcome.VALID);
        assertThat(verify(OPENSSL_GATEWAY_TOKEN, ISSUED_AT.minusSeconds(3)).outcome())
                .isEqualTo(InternalTokenOutcome.NOT_YET_VALID);
    }

    @Test
    void honoursCustomMaxAge() {
        assertThat(PAYMENT_LINKS
                        .verify(
                                OPENSSL_GATEWAY_TOKEN,
                                MERCHANT,
                                API_KEY,
                                CREATE,
                                ISSUED_AT.plusSeconds(4),
                                Duration.ofSeconds(3))
                        .outcome())
                .isEqualTo(InternalTokenOutcome.EXPIRED);
    }

    @Test
    void precheckLeavesOnlyTheSignatureToCheck() {
        String forged = OPENSSL_GATEWAY_TOKEN.replace(".MIag", ".MIah");
        assertThat(PAYMENT_LINKS.precheck(forged, ISSUED_AT, MAX_AGE))
                .isEqualTo(new InternalTokenVerification(InternalTokenOutcome.VALID, "gateway"));
        assertThat(outcome(forged, MERCHANT, API_KEY, CREATE)).isEqualTo(InternalTokenOutcome.BAD_SIGNATURE);
    }

    @ParameterizedTest
    @NullAndEmptySource
    @ValueSource(strings = {"  ", "\t"})
    void reportsMissingToken(String token) {
        assertThat(outcome(token, MERCHANT, API_KEY, CREATE)).isEqualTo(InternalTokenOutcome.MISSING);
    }

    static final String SIGNATURE =
            "MIagXweZOJnhRWCeFwXSlQd8P8q5Otyx-Aj9U9iDUUQ8761u2Wm3XUmcqnZ4UTHI5bE-5NHH2cA3S3_1oUxlDg";

    @ParameterizedTest
    @ValueSource(
            strings = {
                "garbage",
                // the HMAC tokens of earlier versions are refused outright
                "v1.1767268800.k7o0fEH9qXUVREUHoUJ3ofJCsR6tkaEdTMhgjqXj7dg",
                "v2.gateway.1767268800._mYDZV989SmsIETNGQvmI98fqS7avo9aF_5P8UdYbrc",
                "v3.gateway.1767268800." + SIGNATURE, // no audience
                "V3.gateway.payment-links-service.1767268800." + SIGNATURE,
                "v3.Gateway.payment-links-service.1767268800." + SIGNATURE,
                "v3.gateway.Payment-Links-Service.1767268800." + SIGNATURE,
                "v3..payment-links-service.1767268800." + SIGNATURE,
                "v3.gateway..1767268800." + SIGNATURE,
                "v3.gate way.payment-links-service.1767268800." + SIGNATURE,
                "v3.gateway.payment-links-service.abc." + SIGNATURE,
                "v3.gateway.payment-links-service.-1767268800." + SIGNATURE,
                "v3.gateway.payment-links-service.01767268800." + SIGNATURE,
                "v3.gateway.payment-links-service.99999999999999999999999." + SIGNATURE,
                "v3.gateway.payment-links-service.1767268800." + SIGNATURE + "A", // one char too many
                "v3.gateway.payment-links-service.1767268800.MIagXweZOJnhRWCeFwXSlQd8P8q5Otyx-Aj9U9iDUUQ8761u2Wm3X",
                "v3.gateway.payment-links-service.1767268800." + SIGNATURE + "==", // padded
                "v3.gateway.payment-links-service.1767268800.+IagXweZOJnhRWCeFwXSlQd8P8q5Otyx-Aj9U9iDUUQ8761u2Wm3XUmcqnZ4UTHI5bE-5NHH2cA3S3_1oUxlDg", // standard alphabet
                "v3.gateway.payment-links-service.1767268800." + SIGNATURE + ".extra",
                " v3.gateway.payment-links-service.1767268800." + SIGNATURE,
            })
    void reportsMalformedToken(String token) {
        assertThat(outcome(token, MERCHANT, API_KEY, CREATE)).isEqualTo(InternalTokenOutcome.MALFORMED);
    }

    @Test
    void refusesKeysThatAreNotEd25519MalformedIdsAndSharedOrTooManyKeys() {
        SigningKey rsa =
                SigningKey.parse(RsaKeyPairs.generate(new SecureRandom(), 2048).privateKeyPem());
        assertThatThrownBy(() -> new InternalTokenSigner(InternalCallers.GATEWAY, rsa))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("Ed25519");
        assertThatThrownBy(() -> new InternalTokenVerifier(
                        InternalCallers.PAYMENT_LINKS_SERVICE,
                        Map.of(InternalCallers.GATEWAY, List.of(rsa.verificationKey()))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("Ed25519");
        assertThatThrownBy(() -> InternalTokenSigner.parse("Chain.Watcher", GATEWAY_PRIVATE))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("ids must be");
        assertThatThrownBy(() -> GATEWAY.issue("Payment Links", LIST, ISSUED_AT))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> GATEWAY.issue(InternalCallers.WEBHOOK_SERVICE, MERCHANT, null, LIST, ISSUED_AT))
                .as("an identity without its credential")
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new InternalTokenVerifier(
                        InternalCallers.PAYMENT_LINKS_SERVICE,
                        Map.of(
                                InternalCallers.GATEWAY,
                                List.of(VerificationKey.parse(GATEWAY_PUBLIC)),
                                InternalCallers.CHAIN_WATCHER,
                                List.of(VerificationKey.parse(GATEWAY_PUBLIC)))))
                .as("one key for two callers: either could sign as the other")
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("share a public key");
        assertThatThrownBy(() -> new InternalTokenVerifier(
                        InternalCallers.PAYMENT_LINKS_SERVICE,
                        Map.of(
                                InternalCallers.GATEWAY,
                                List.of(
                                        VerificationKey.parse(GATEWAY_PUBLIC),
                                        VerificationKey.parse(NEXT_PUBLIC),
                                        VerificationKey.parse(WATCHER_PUBLIC)))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("one or 2");
        assertThatThrownBy(() -> new InternalTokenVerifier(
                        InternalCallers.PAYMENT_LINKS_SERVICE, Map.of(InternalCallers.GATEWAY, List.of())))
                .isInstanceOf(IllegalArgumentException.class);
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
    void neverPrintsTheKey() {
        assertThat(GATEWAY.toString())
                .doesNotContain(GATEWAY_PRIVATE.substring(8))
                .contains("gateway");
    }

    @Test
    void headerNamesAndIdsAreStable() {
        assertThat(InternalHeaders.MERCHANT_ID).isEqualTo("X-Merchant-Id");
        assertThat(InternalHeaders.MERCHANT_MODE).isEqualTo("X-Merchant-Mode");
        assertThat(InternalHeaders.MERCHANT_CREDENTIAL).isEqualTo("X-Merchant-Credential");
        assertThat(InternalHeaders.REQUEST_ID).isEqualTo("X-Request-Id");
        assertThat(InternalHeaders.INTERNAL_AUTH).isEqualTo("X-Internal-Auth");
        assertThat(InternalCallers.GATEWAY).isEqualTo("gateway");
        assertThat(InternalCallers.CHAIN_WATCHER).isEqualTo("chain-watcher");
        assertThat(List.of(
                        InternalCallers.PAYMENT_LINKS_SERVICE,
                        InternalCallers.SUBSCRIPTIONS_SERVICE,
                        InternalCallers.WEBHOOK_SERVICE))
                .containsExactly("payment-links-service", "subscriptions-service", "webhook-service");
        assertThat(MerchantCredential.fromWireName("publishable_key")).isEqualTo(MerchantCredential.PUBLISHABLE_KEY);
        assertThatThrownBy(() -> MerchantCredential.fromWireName("API_KEY"))
                .isInstanceOf(IllegalArgumentException.class);
    }

    private static InternalTokenVerification verify(String token, Instant now) {
        return PAYMENT_LINKS.verify(token, MERCHANT, API_KEY, CREATE, now, MAX_AGE);
    }

    /** A token checked by payment-links-service at the time it was issued. */
    private static InternalTokenOutcome outcome(
            String token, MerchantIdentity identity, MerchantCredential credential, InternalRequest request) {
        return PAYMENT_LINKS
                .verify(token, identity, credential, request, ISSUED_AT, MAX_AGE)
                .outcome();
    }

    /** The chain watcher's known token checked by subscriptions-service against this identity and request. */
    private static InternalTokenOutcome watcherOutcome(MerchantIdentity identity, InternalRequest request) {
        return SUBSCRIPTIONS
                .verify(OPENSSL_WATCHER_TOKEN, identity, null, request, ISSUED_AT, MAX_AGE)
                .outcome();
    }
}
