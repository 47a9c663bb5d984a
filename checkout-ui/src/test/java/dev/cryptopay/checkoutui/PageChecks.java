package dev.cryptopay.checkoutui;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.springframework.test.web.reactive.server.WebTestClient;

/**
 * What every customer page's responses must show, for the tests of the services that render one (this module's test
 * jar): the security headers, markup the Content-Security-Policy allows, and the shared assets' caching; with the
 * page's text and the {@code #state[data-state]} that {@code live.js} and the browser walks rely on.
 */
public final class PageChecks {

    /** The policy every response under a page's roots carries, written out rather than taken from the code. */
    public static final String CSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
            + "connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";
    /** The cache lifetime of a versioned asset. */
    public static final String IMMUTABLE = "max-age=31536000, public, immutable";

    /** A script element without src, an inline style attribute or element, an inline event handler. */
    private static final Pattern INLINE_CODE =
            Pattern.compile("<script(?![^>]*\\ssrc=)|\\sstyle=|<style|\\son[a-z]+=", Pattern.CASE_INSENSITIVE);

    private static final Pattern STATE = Pattern.compile("id=\"state\"[^>]*data-state=\"([a-z_]+)\"");

    private PageChecks() {}

    /** No inline script, style or event handler (the policy would block them); a language, a viewport, one h1. */
    public static void assertPageMarkup(String html) {
        assertThat(INLINE_CODE.matcher(html).find())
                .as("no inline script, style or handler in\n" + html)
                .isFalse();
        assertThat(html).contains("<html lang=\"en\">").contains("<meta name=\"viewport\"");
        assertThat(html.split("<h1", -1)).as("one h1").hasSize(2);
    }

    /** The security headers of every response under a page's roots: pages, JSON, streams, assets and errors. */
    public static void assertSecurityHeaders(WebTestClient.ResponseSpec response) {
        response.expectHeader()
                .valueEquals("Content-Security-Policy", CSP)
                .expectHeader()
                .valueEquals("X-Content-Type-Options", "nosniff")
                .expectHeader()
                .valueEquals("Referrer-Policy", "no-referrer")
                .expectHeader()
                .valueEquals("X-Frame-Options", "DENY");
    }

    /**
     * A response the browser must not keep (a page, its JSON, its stream, an error): the security headers and
     * {@code Cache-Control: no-store}.
     *
     * @return the response, for more expectations
     */
    public static WebTestClient.ResponseSpec assertUncached(WebTestClient.ResponseSpec response) {
        assertSecurityHeaders(response);
        return response.expectHeader().valueEquals("Cache-Control", "no-store");
    }

    /**
     * A versioned asset: 200 with this content type, the immutable year-long lifetime and the security headers.
     *
     * @return the asset's text
     */
    public static String assertAsset(WebTestClient.ResponseSpec response, String contentType) {
        response.expectStatus()
                .isOk()
                .expectHeader()
                .contentType(contentType)
                .expectHeader()
                .valueEquals("Cache-Control", IMMUTABLE);
        assertSecurityHeaders(response);
        return body(response);
    }

    /** The response's body as UTF-8 text; empty when it has none. */
    public static String body(WebTestClient.ResponseSpec response) {
        byte[] bytes = response.expectBody().returnResult().getResponseBody();
        return bytes == null ? "" : new String(bytes, StandardCharsets.UTF_8);
    }

    /** The {@code data-state} the page shows. */
    public static String state(String html) {
        Matcher matcher = STATE.matcher(html);
        if (!matcher.find()) {
            throw new AssertionError("no #state[data-state] in the page:\n" + html);
        }
        return matcher.group(1);
    }
}
