package dev.cryptopay.testsupport;

import dev.cryptopay.auth.internal.InternalHeaders;
import dev.cryptopay.auth.internal.InternalIdentityToken;
import dev.cryptopay.auth.internal.MerchantIdentity;
import java.net.URI;
import java.time.Clock;
import org.springframework.http.HttpMethod;
import org.springframework.test.web.reactive.server.WebTestClient;

/**
 * Sends test requests to a service the way the gateway forwards them: the merchant identity headers and a fresh
 * internal token issued at the service's own clock (so tests that move the clock still pass the token check).
 */
public final class GatewayForwarding {

    private final InternalIdentityToken tokens;
    private final Clock clock;

    public GatewayForwarding(String internalSecret, Clock clock) {
        this.tokens = InternalIdentityToken.fromSecret(internalSecret);
        this.clock = clock;
    }

    /** A request for this merchant, or a non-merchant internal call when {@code merchant} is null. */
    public WebTestClient.RequestBodySpec as(
            WebTestClient web, MerchantIdentity merchant, HttpMethod method, String uri) {
        String path = uri.contains("?") ? uri.substring(0, uri.indexOf('?')) : uri;
        return identify(web.method(method).uri(uri), merchant, method, path);
    }

    /** As {@link #as(WebTestClient, MerchantIdentity, HttpMethod, String)}, for a URI sent exactly as encoded. */
    public WebTestClient.RequestBodySpec as(WebTestClient web, MerchantIdentity merchant, HttpMethod method, URI uri) {
        return identify(web.method(method).uri(uri), merchant, method, uri.getRawPath());
    }

    private WebTestClient.RequestBodySpec identify(
            WebTestClient.RequestBodySpec request, MerchantIdentity merchant, HttpMethod method, String path) {
        WebTestClient.RequestBodySpec spec = request.header(
                InternalHeaders.INTERNAL_AUTH, tokens.issue(merchant, method.name(), path, clock.instant()));
        if (merchant != null) {
            spec = spec.header(
                            InternalHeaders.MERCHANT_ID, merchant.merchantId().toString())
                    .header(InternalHeaders.MERCHANT_MODE, merchant.mode().wireName());
        }
        return spec;
    }
}
