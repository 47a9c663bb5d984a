package dev.cryptopay.gateway.dashboard;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cryptopay.checkoutui.PageChecks;
import dev.cryptopay.gateway.support.GatewayTestBase;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.WebTestClient;

/**
 * {@code /dashboard}: the page for every path (deep links included), never stored, its assets under one content
 * version and cached for a year, and the customers' pages' security headers on all of it, errors included.
 */
class DashboardTest extends GatewayTestBase {

    private static final Pattern ASSETS = Pattern.compile("src=\"(/dashboard/assets/([0-9a-f]{16})/app\\.js)\"");

    @Test
    void everyPathShowsThePageWithTheStrictPolicyAndNoCaching() {
        for (String path : new String[] {
            "/dashboard", "/dashboard/", "/dashboard/links", "/dashboard/links/1b2c", "/dashboard/developers"
        }) {
            WebTestClient.ResponseSpec response = client.get().uri(path).exchange();
            response.expectStatus().isOk().expectHeader().contentTypeCompatibleWith(MediaType.TEXT_HTML);
            PageChecks.assertUncached(response);
            String page = PageChecks.body(response);
            PageChecks.assertPageMarkup(page);
            assertThat(ASSETS.matcher(page).find()).as(path).isTrue();
            assertThat(page).doesNotContain("{{");
        }
    }

    @Test
    void assetsAreServedUnderTheirContentVersionForAYear() {
        String page = PageChecks.body(client.get().uri("/dashboard").exchange());
        Matcher script = ASSETS.matcher(page);
        assertThat(script.find()).isTrue();
        String base = "/dashboard/assets/" + script.group(2) + "/";
        assertThat(page).contains("href=\"" + base + "dashboard.css\"");

        String app =
                PageChecks.assertAsset(client.get().uri(base + "app.js").exchange(), "text/javascript;charset=utf-8");
        assertThat(app).contains("import");
        String signing = PageChecks.assertAsset(
                client.get().uri(base + "signing.js").exchange(), "text/javascript;charset=utf-8");
        assertThat(signing).contains("canonicalMessage");
        PageChecks.assertAsset(client.get().uri(base + "dashboard.css").exchange(), "text/css;charset=utf-8");
    }

    @Test
    void anythingElseUnderAssetsIsAProblemWithTheSameHeaders() {
        String page = PageChecks.body(client.get().uri("/dashboard").exchange());
        Matcher script = ASSETS.matcher(page);
        assertThat(script.find()).isTrue();
        for (String path : new String[] {
            "/dashboard/assets/0000000000000000/app.js",
            "/dashboard/assets/" + script.group(2) + "/missing.js",
            "/dashboard/assets/" + script.group(2) + "/index.html",
            "/dashboard/assets/app.js",
            "/dashboard/assets/" + script.group(2) + "/x/app.js"
        }) {
            WebTestClient.ResponseSpec response = client.get().uri(path).exchange();
            response.expectStatus()
                    .isNotFound()
                    .expectHeader()
                    .contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON);
            PageChecks.assertUncached(response);
        }
        client.post().uri("/dashboard").exchange().expectStatus().isNotFound();
    }
}
