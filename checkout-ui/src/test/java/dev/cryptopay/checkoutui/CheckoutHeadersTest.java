package dev.cryptopay.checkoutui;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpHeaders;
import org.springframework.mock.http.server.reactive.MockServerHttpRequest;
import org.springframework.mock.web.server.MockServerWebExchange;

class CheckoutHeadersTest {

    private final CheckoutHeaders headers = new CheckoutHeaders("/checkout/subscribe");

    @Test
    void coversTheRootAndEverythingBelowItOnly() {
        assertThat(headers.covers("/checkout/subscribe")).isTrue();
        assertThat(headers.covers("/checkout/subscribe/assets/subscribe.js")).isTrue();
        assertThat(headers.covers("/checkout/subscriber")).isFalse();
        assertThat(headers.covers("/checkout/payment_link")).isFalse();
        assertThat(headers.covers("/public/subscriber/x")).isFalse();
    }

    @Test
    void setsTheStrictPolicyAndNoStoreUnlessTheRouteCachesItself() {
        HttpHeaders page = respond("/checkout/subscribe", null);
        assertThat(page.getFirst("Content-Security-Policy")).isEqualTo(CheckoutHeaders.CONTENT_SECURITY_POLICY);
        assertThat(CheckoutHeaders.CONTENT_SECURITY_POLICY).isEqualTo(PageChecks.CSP);
        assertThat(CheckoutHeaders.CONTENT_SECURITY_POLICY)
                .contains("script-src 'self'")
                .doesNotContain("unsafe-inline")
                .contains("frame-ancestors 'none'");
        assertThat(page.getFirst("X-Content-Type-Options")).isEqualTo("nosniff");
        assertThat(page.getFirst("Referrer-Policy")).isEqualTo("no-referrer");
        assertThat(page.getFirst("X-Frame-Options")).isEqualTo("DENY");
        assertThat(page.getCacheControl()).isEqualTo("no-store");

        HttpHeaders asset = respond("/checkout/subscribe/assets/subscribe.js", "max-age=31536000, public, immutable");
        assertThat(asset.getCacheControl()).isEqualTo("max-age=31536000, public, immutable");
        assertThat(asset.getFirst("Content-Security-Policy")).isNotNull();

        HttpHeaders other = respond("/public/plans", null);
        assertThat(other.getFirst("Content-Security-Policy")).isNull();
        assertThat(other.getCacheControl()).isNull();
    }

    private HttpHeaders respond(String path, String cacheControl) {
        MockServerWebExchange exchange =
                MockServerWebExchange.from(MockServerHttpRequest.get(path).build());
        headers.filter(exchange, served -> {
                    if (cacheControl != null) {
                        served.getResponse().getHeaders().setCacheControl(cacheControl);
                    }
                    return served.getResponse().setComplete();
                })
                .block(Duration.ofSeconds(5));
        return exchange.getResponse().getHeaders();
    }
}
