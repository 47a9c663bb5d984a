package dev.cryptopay.e2e;

import static dev.cryptopay.e2e.SuiteStack.JSON;
import static dev.cryptopay.e2e.SuiteStack.httpGet;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cryptopay.deploy.LocalStack;
import dev.cryptopay.deploy.SignedClient;
import dev.cryptopay.testsupport.chain.DevChain;
import dev.cryptopay.testsupport.chain.DevTokens;
import java.io.IOException;
import java.math.BigInteger;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * A new merchant uses the dashboard ({@code /dashboard}, served by the gateway) in a real browser (Debian's Chromium
 * driven by playwright-core, see {@code browser/dashboard-walk.mjs}): the page's own signing module signs auth-lib's
 * fixture request exactly as Node.js did; it signs up (the key pair made in the page, the private key saved as a
 * file), registers a receiving key, asks for production access, creates a payment link (a refused amount shown next to
 * its field first), sees it paid on the dev chain, filters the list, creates and revokes a key, signs out and in again
 * with the saved file, and a remembered session survives a reload until sign-out. The saved key file and API key then
 * sign requests from Java too. The merchant's own text stays text; axe-core finds nothing serious or critical on the
 * main pages. Screenshots at desktop and phone widths are kept in {@code target/dashboard-screenshots/}.
 */
class DashboardEndToEndTest {

    private static final Path BROWSER = Path.of("browser");
    private static final Path SCREENSHOTS = Path.of("target", "dashboard-screenshots");
    private static final Path DOWNLOADS = Path.of("target", "dashboard-downloads");
    private static final Path FIXTURES = Path.of("..", "auth-lib", "src", "test", "resources", "fixtures");
    private static final Duration WALK_LIMIT = Duration.ofMinutes(5);

    private static final String HOSTILE_NAME = "Walk Shop <img src=x onerror=alert(1)>";
    private static final String HOSTILE_LINK = "Beans <script>alert(2)</script>";

    @Test
    void aNewMerchantSignsUpGetsALinkPaidAndManagesItsKeysInTheBrowser() throws Exception {
        LocalStack stack = SuiteStack.get();
        DevChain chain = stack.devChain()
                .orElseThrow(() ->
                        new AssertionError("the stack runs without its dev chain: Node.js 20 and npm are needed"));
        HttpResponse<String> page = httpGet(stack.gatewayUrl() + "/dashboard/links");
        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.body()).contains("<meta name=\"cryptopay-signup\" content=\"enabled\">");
        assertThat(page.headers().firstValue("Content-Security-Policy").orElseThrow())
                .contains("script-src 'self'", "style-src 'self'", "frame-ancestors 'none'")
                .doesNotContain("unsafe-inline");

        String payer = chain.accounts().get(6);
        chain.mint(DevTokens.USDC, payer, DevTokens.USDC.baseUnits("2.5"));
        JsonNode walk = walk(stack.gatewayUrl(), chain.rpcUrl(), payer, NodeTools.freshReceivingKey());

        // The browser signs exactly what auth-lib and Node.js sign (Ed25519 is deterministic).
        String expected = Files.readString(FIXTURES.resolve("canonical-request.ed25519-node.sig.b64"))
                .strip();
        assertThat(walk.at("/vector/fromPem").asString()).isEqualTo(expected);
        assertThat(walk.at("/vector/fromCompact").asString()).isEqualTo(expected);
        assertThat(Base64.getDecoder().decode(walk.at("/vector/message").asString()))
                .isEqualTo(Files.readAllBytes(FIXTURES.resolve("canonical-request.txt")));

        // Sign-up: a refused field is shown at the field; the keys are shown once, the private key saved as a file.
        assertThat(walk.get("signupEmailError").asString()).contains("email");
        assertThat(walk.get("signupEmailInvalid").asString()).isEqualTo("true");
        String apiKey = walk.get("apiKey").asString();
        assertThat(apiKey).matches("mk_test_[A-Z2-7]{32}");
        assertThat(walk.get("publishableKey").asString()).matches("pk_test_[A-Z2-7]{32}");
        assertThat(walk.get("continueDisabledBeforeDownload").asBoolean()).isTrue();
        assertThat(walk.get("keyFileName").asString()).isEqualTo("cryptopay-" + apiKey.substring(0, 12) + ".pem");
        String keyFile = walk.get("keyFileText").asString();
        assertThat(keyFile).startsWith("-----BEGIN PRIVATE KEY-----\n").endsWith("-----END PRIVATE KEY-----\n");
        assertThat(walk.get("mode").asString()).isEqualTo("Test mode");
        assertThat(walk.get("merchantName").asString()).isEqualTo(HOSTILE_NAME);
        assertThat(walk.get("accountHeading").asString()).isEqualTo(HOSTILE_NAME);

        // The saved file and the API key are a merchant's credentials like any other: they sign from Java.
        SignedClient merchant = new SignedClient(stack.baseUrl(), apiKey, keyFile);
        JsonNode account = JSON.readTree(merchant.get("/account").body());
        assertThat(account.get("name").asString()).isEqualTo(HOSTILE_NAME);
        assertThat(account.get("email").asString()).isEqualTo("walk@example.com");

        assertThat(walk.get("receivingFingerprint").asString()).matches("[0-9a-f]{8}");
        assertThat(walk.get("productionAccess").asString()).isEqualTo("pending");
        assertThat(JSON.readTree(merchant.get("/account/production_access").body())
                        .get("use_case")
                        .asString())
                .isEqualTo("Coffee beans, shipped within the EU");
        assertThat(walk.get("currentKeyMarked").asInt()).isEqualTo(1);

        // The payment link: the API's message at the refused field, then created, paid and shown paid.
        assertThat(walk.get("amountError").asString()).contains("amount");
        assertThat(walk.get("amountInvalid").asString()).isEqualTo("true");
        assertThat(walk.get("linkHeading").asString()).isEqualTo(HOSTILE_LINK);
        String linkId = walk.get("linkId").asString();
        assertThat(walk.get("paymentUrl").asString())
                .isEqualTo(stack.gatewayUrl() + "/checkout/payment_link?payment_id=" + linkId);
        assertThat(walk.get("copied").asString())
                .isEqualTo(walk.get("paymentUrl").asString());
        assertThat(walk.get("received").asString()).isEqualTo("2.5 USDC");
        assertThat(walk.get("transactions").asInt()).isEqualTo(1);
        assertThat(walk.get("totals").asString()).isEqualTo("2.5 USDC");
        assertThat(walk.get("recentFirst").asString()).isEqualTo(HOSTILE_LINK);
        String deposit = walk.get("depositAddress").asString();
        assertThat(chain.tokenBalance(DevTokens.USDC, deposit)).isEqualTo(new BigInteger("2500000"));
        JsonNode paid =
                JSON.readTree(merchant.get("/payment_links/" + linkId).body()).get("data");
        assertThat(paid.get("payment_status").asString()).isEqualTo("completed");
        assertThat(paid.get("payment_name").asString()).isEqualTo(HOSTILE_LINK);
        assertThat(walk.get("filteredUrl").asString()).endsWith("/dashboard/links?status=completed");
        assertThat(walk.get("filteredHeading").asString()).isEqualTo("1 payment link");
        assertThat(walk.get("filterError").asString()).contains("min_amount");

        // A second key, made and revoked in the page: refused from Java too; a live key waits for production access.
        String second = walk.get("secondApiKey").asString();
        assertThat(walk.get("keyRows").values().stream().map(JsonNode::asString))
                .anySatisfy(row ->
                        assertThat(row).startsWith(second.substring(0, 12)).contains("Revoked"))
                .anySatisfy(row ->
                        assertThat(row).startsWith(apiKey.substring(0, 12)).contains("Signing this session"));
        String secondFile = Files.readString(Path.of(walk.get("secondKeyFile").asString()));
        HttpResponse<String> revoked = new SignedClient(stack.baseUrl(), second, secondFile).get("/account");
        assertThat(revoked.statusCode()).isEqualTo(401);
        assertThat(JSON.readTree(revoked.body()).get("code").asString()).isEqualTo("api_key_revoked");
        assertThat(walk.get("liveKeyError").asString()).contains("production access");

        // Signing out and in again; memory-only and remembered sessions; the keyboard's first stop.
        assertThat(walk.get("navHiddenSignedOut").asBoolean()).isTrue();
        assertThat(walk.get("wrongKeyError").asString()).isEqualTo("This private key does not belong to this API key.");
        assertThat(walk.get("signedInAgain").asString()).isEqualTo("Test mode");
        assertThat(walk.get("deepLinkAfterSignIn").asString()).isEqualTo("/dashboard/links/" + linkId);
        assertThat(walk.get("rememberedAfterReload").asBoolean()).isTrue();
        assertThat(walk.get("forgottenAfterSignOut").asBoolean()).isTrue();
        assertThat(walk.get("firstTabStop").asString()).isEqualTo("Skip to content");

        // Only the refusals the walk provoked; nothing injected ran; no other console error.
        assertThat(walk.get("failedRequests").values().stream()
                        .map(r -> r.get("method").asString() + " "
                                + r.get("path").asString() + " "
                                + r.get("status").asInt() + " " + r.get("code").asString())
                        .toList())
                .containsExactlyInAnyOrder(
                        "POST /api/v1/signup 400 validation_failed",
                        "GET /api/v1/payment_links/receiving_key 404 not_found",
                        "POST /api/v1/payment_links 400 validation_failed",
                        "GET /api/v1/payment_links 400 validation_failed",
                        "POST /api/v1/account/keys 403 production_access_required",
                        "GET /api/v1/account 401 invalid_signature");
        assertThat(walk.get("consoleErrors").values().stream().map(JsonNode::asString))
                .hasSize(walk.get("failedRequests").size())
                .allMatch(text -> text.startsWith("Failed to load resource: the server responded with a status of"));
        assertThat(walk.get("dialogs").values().stream().map(d -> d.get("type").asString()))
                .as("only the revocation's confirmation")
                .containsExactly("confirm");

        // Accessibility: axe-core on every main page, nothing serious or critical; nothing wider than a phone.
        JsonNode axe = walk.get("axe");
        assertThat(axe.propertyNames())
                .contains("signin", "signup", "overview", "links", "link-new", "link", "developers");
        for (Map.Entry<String, JsonNode> pageResult : axe.properties()) {
            assertThat(pageResult.getValue().values().stream()
                            .filter(v -> List.of("serious", "critical")
                                    .contains(v.get("impact").asString()))
                            .map(JsonNode::toString)
                            .toList())
                    .as("serious or critical axe-core violations on " + pageResult.getKey())
                    .isEmpty();
        }
        assertThat(walk.get("overflows").properties())
                .allSatisfy(shot -> assertThat(shot.getValue().asBoolean())
                        .as(shot.getKey() + " is wider than a phone")
                        .isFalse());
        for (String shot : List.of(
                "1-sign-in",
                "2-sign-up-refused",
                "3-keys-once",
                "4-developers",
                "5-link-refused",
                "6-link-pending",
                "7-link-paid",
                "8-overview",
                "9-links-completed",
                "10-keys")) {
            assertThat(SCREENSHOTS.resolve(shot + "-desktop.png")).isNotEmptyFile();
            assertThat(SCREENSHOTS.resolve(shot + "-phone.png")).isNotEmptyFile();
        }
    }

    /** Runs the browser script; answers the JSON line it prints. */
    private static JsonNode walk(String gatewayUrl, String rpcUrl, String payer, String xpub)
            throws IOException, InterruptedException {
        NodeTools.installPackages(BROWSER, "playwright-core");
        NodeTools.installPackages(BROWSER, "axe-core");
        Path log = Files.createTempFile("dashboard-walk", ".log");
        Process process = new ProcessBuilder(
                        "node",
                        "dashboard-walk.mjs",
                        gatewayUrl,
                        rpcUrl,
                        payer,
                        xpub,
                        FIXTURES.toAbsolutePath().normalize().toString(),
                        SCREENSHOTS.toAbsolutePath().toString(),
                        DOWNLOADS.toAbsolutePath().toString())
                .directory(BROWSER.toFile())
                .redirectError(log.toFile())
                .start();
        if (!process.waitFor(WALK_LIMIT.toSeconds(), TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError(
                    "the dashboard walk did not finish in " + WALK_LIMIT + ": " + Files.readString(log));
        }
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        assertThat(process.exitValue())
                .as("dashboard walk: " + Files.readString(log) + output)
                .isZero();
        return JSON.readTree(output.lines().reduce((first, last) -> last).orElseThrow());
    }
}
