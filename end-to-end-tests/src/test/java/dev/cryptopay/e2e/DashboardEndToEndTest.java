package dev.cryptopay.e2e;

import static dev.cryptopay.e2e.SuiteStack.JSON;
import static dev.cryptopay.e2e.SuiteStack.await;
import static dev.cryptopay.e2e.SuiteStack.createLink;
import static dev.cryptopay.e2e.SuiteStack.httpGet;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cryptopay.deploy.LocalStack;
import dev.cryptopay.deploy.SignedClient;
import dev.cryptopay.testsupport.chain.DevChain;
import dev.cryptopay.testsupport.chain.DevTokens;
import dev.cryptopay.testsupport.webhook.WebhookReceiver;
import java.math.BigInteger;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * A new merchant uses the dashboard ({@code /dashboard}, served by the gateway) in a real browser (Debian's Chromium
 * driven by playwright-core, see {@code browser/dashboard-walk.mjs}): the page's own signing module signs auth-lib's
 * fixture request exactly as Node.js did; it signs up (the key pair made in the page, the private key saved as a
 * file), registers a receiving key, asks for production access, creates a payment link (a refused amount shown next to
 * its field first), sees it paid on the dev chain, filters the list, creates and revokes a key, signs out and in again
 * with the saved file, and a remembered session survives a reload until sign-out. The saved key file and API key then
 * sign requests from Java too. Then, with the keyboard only, it goes through the navigation to the paid link (its QR
 * code, served by payment-links-service) and to the webhooks, where it adds an endpoint at this test's receiver (a
 * refused first try, the secret shown once); the receiver answers 500, the dashboard shows the failed attempt and the
 * failing endpoint, the receiver is switched to succeed and "Retry" delivers; the secret is rotated (the next event is
 * signed with the new one only), failed deliveries are recovered, and another endpoint is deleted; the webhook link is
 * paid and its page lists its events with their deliveries, one leading to its attempts. The merchant's own
 * text stays text; axe-core finds nothing serious or critical on the main pages. Screenshots at desktop and phone
 * widths are kept in {@code target/dashboard-screenshots/}.
 */
class DashboardEndToEndTest {

    private static final Path SCREENSHOTS = Path.of("target", "dashboard-screenshots");
    private static final Path DOWNLOADS = Path.of("target", "dashboard-downloads");
    private static final Path FIXTURES = Path.of("..", "auth-lib", "src", "test", "resources", "fixtures");
    private static final Duration WALK_LIMIT = Duration.ofMinutes(8);

    /** Where the walk steers the receiver: POST …/succeed, GET …/calls (deliveries received so far). */
    private static final String CONTROL = "/walk";

    private static final String SECRET = "whsec_[A-Za-z0-9+/]{43}=";

    /** The merchant's webhook endpoint: 500 with Retry-After an hour, until the walk tells it to succeed. */
    @AutoClose
    private final WebhookReceiver receiver = new WebhookReceiver();

    private final AtomicBoolean receiverSucceeds = new AtomicBoolean();

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
        // 2.5 for the first link, 1 for the webhook link the walk pays last.
        chain.mint(DevTokens.USDC, payer, DevTokens.USDC.baseUnits("3.5"));
        receiver.otherwise(this::answer);
        JsonNode walk = NodeTools.runWalk(
                "dashboard-walk.mjs",
                WALK_LIMIT,
                stack.gatewayUrl(),
                chain.rpcUrl(),
                payer,
                NodeTools.freshReceivingKey(),
                FIXTURES.toAbsolutePath().normalize().toString(),
                SCREENSHOTS.toAbsolutePath().toString(),
                DOWNLOADS.toAbsolutePath().toString(),
                receiver.url(),
                receiver.url(CONTROL));

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
        // USDC is valued one dollar a unit by chain-watcher, through the whole stack.
        assertThat(walk.get("received").asString()).isEqualTo("2.5 USDC · 2.5 USD");
        assertThat(walk.get("transactions").asInt()).isEqualTo(1);
        assertThat(walk.get("totals").asString()).isEqualTo("2.5");
        assertThat(walk.get("totalsDetail").asString()).isEqualTo("1 payment");
        assertThat(walk.get("totalsUsd").asString()).isEqualTo("2.5");
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

        // A second key, read-only, made and revoked in the page: refused from Java too; a live key waits for
        // production access.
        String second = walk.get("secondApiKey").asString();
        assertThat(walk.get("secondKeyNotice").asString()).contains("with scopes: Read.");
        assertThat(walk.get("keyRows").values().stream().map(JsonNode::asString))
                .anySatisfy(row -> assertThat(row)
                        .startsWith(second.substring(0, 12))
                        .contains("Read")
                        .doesNotContain("All")
                        .contains("Revoked"))
                .anySatisfy(row -> assertThat(row)
                        .startsWith(apiKey.substring(0, 12))
                        .contains("All")
                        .contains("Signing this session"));
        String secondFile = Files.readString(Path.of(walk.get("secondKeyFile").asString()));
        HttpResponse<String> revoked = new SignedClient(stack.baseUrl(), second, secondFile).get("/account");
        assertThat(revoked.statusCode()).isEqualTo(401);
        assertThat(JSON.readTree(revoked.body()).get("code").asString()).isEqualTo("api_key_revoked");
        assertThat(walk.get("liveKeyError").asString()).contains("production access");
        // The security log, newest first: the second key's revocation and creation, by the first key, from the browser.
        List<String> security = walk.get("securityRows").values().stream()
                .map(JsonNode::asString)
                .toList();
        assertThat(security.get(0)).contains("API key revoked").contains(apiKey.substring(0, 12));
        assertThat(security).anySatisfy(row -> assertThat(row).contains("API key created"));
        assertThat(security).anySatisfy(row -> assertThat(row).contains("API key used for the first time"));
        // The e-mail settings, saved through the gateway to notification-service and read back.
        assertThat(walk.get("supportEmailError").asString()).isEqualTo("support_email must be a valid e-mail address");
        assertThat(walk.at("/emailSettings/name").asString()).isEqualTo("Walk <b>shop</b>");
        assertThat(walk.at("/emailSettings/support").asString()).isEqualTo("help@walk.example");
        assertThat(walk.at("/emailSettings/paymentReceipt").asBoolean()).isFalse();
        assertThat(walk.at("/emailSettings/invitation").asBoolean()).isTrue();
        assertThat(walk.get("emailLog").asString()).contains("Sent e-mails").contains("No e-mail written yet.");

        // Signing out and in again; memory-only and remembered sessions; the keyboard's first stop.
        assertThat(walk.get("navHiddenSignedOut").asBoolean()).isTrue();
        assertThat(walk.get("wrongKeyError").asString()).isEqualTo("This private key does not belong to this API key.");
        assertThat(walk.get("signedInAgain").asString()).isEqualTo("Test mode");
        assertThat(walk.get("deepLinkAfterSignIn").asString()).isEqualTo("/dashboard/links/" + linkId);
        assertThat(walk.get("rememberedAfterReload").asBoolean()).isTrue();
        assertThat(walk.get("forgottenAfterSignOut").asBoolean()).isTrue();
        assertThat(walk.get("firstTabStop").asString()).isEqualTo("Skip to content");

        keyboardOnly(walk.get("keyboard"));
        qrCode(stack, walk, linkId);
        webhooks(walk, merchant);

        // Only the refusals the walk provoked; nothing injected ran; no other console error.
        assertThat(NodeTools.refusedRequests(walk))
                .containsExactlyInAnyOrder(
                        "POST /api/v1/signup 400 validation_failed",
                        "GET /api/v1/payment_links/receiving_key 404 not_found",
                        "POST /api/v1/payment_links 400 validation_failed",
                        "GET /api/v1/payment_links 400 validation_failed",
                        "POST /api/v1/account/keys 403 production_access_required",
                        "GET /api/v1/account 401 invalid_signature",
                        "POST /api/v1/webhook-endpoints 400 validation_failed",
                        "PUT /api/v1/notifications/settings 400 validation_failed");
        assertThat(walk.get("dialogs").values().stream().map(d -> d.get("type").asString()))
                .as("only the confirmations of revoking a key, rotating a secret and deleting an endpoint")
                .containsExactly("confirm", "confirm", "confirm");

        // The API reference renders its operations under its Content-Security-Policy (no violation in the console).
        assertThat(walk.get("docsOperations").asInt()).isGreaterThan(20);

        // Accessibility: axe-core on every main page, nothing serious or critical; nothing wider than a phone.
        assertThat(walk.get("axe").propertyNames())
                .contains(
                        "signin",
                        "signup",
                        "overview",
                        "links",
                        "link-new",
                        "link",
                        "developers",
                        "security",
                        "emails",
                        "webhooks",
                        "webhook",
                        "webhook-delivery",
                        "overview-failing");
        NodeTools.assertPagesClean(
                walk,
                SCREENSHOTS,
                "",
                List.of(
                        "1-sign-in",
                        "2-sign-up-refused",
                        "3-keys-once",
                        "4-developers",
                        "5-link-refused",
                        "6-link-pending",
                        "7-link-paid",
                        "8-overview",
                        "9-links-completed",
                        "10-keys",
                        "10b-emails",
                        "11-link-qr",
                        "12-webhooks-refused",
                        "13-webhook-secret",
                        "14-webhook-failing",
                        "15-delivery-failed",
                        "16-overview-failing",
                        "17-delivery-retried",
                        "18-secret-rotated",
                        "19-link-events"));
    }

    /** With the keyboard only, every view reached put the focus on its heading, and every stop had a name. */
    private void keyboardOnly(JsonNode keyboard) {
        assertThat(keyboard.at("/focus/overview/name").asString()).isEqualTo("Overview");
        assertThat(keyboard.at("/focus/links/name").asString()).isEqualTo("Payment links");
        assertThat(keyboard.at("/focus/link/name").asString()).isEqualTo(HOSTILE_LINK);
        assertThat(keyboard.at("/focus/webhooks/name").asString()).isEqualTo("Webhooks");
        assertThat(keyboard.at("/focus/endpoint/name").asString()).isEqualTo(receiver.url());
        for (String view : List.of("overview", "links", "link", "webhooks", "endpoint")) {
            assertThat(keyboard.at("/focus/" + view + "/tag").asString())
                    .as(view)
                    .isEqualTo("h1");
        }
        // A refused endpoint puts the focus on the field the API named; a created one on its secret, shown once.
        assertThat(keyboard.at("/focus/afterRefusal/value").asString()).isEqualTo("payment.created");
        assertThat(keyboard.at("/focus/afterRefusal/invalid").asString()).isEqualTo("true");
        assertThat(keyboard.at("/focus/afterCreate/id").asString()).isEqualTo("new-secret");
        assertThat(keyboard.at("/focus/afterCreate/name").asString()).contains("you won't see it again");
        assertThat(keyboard.get("stops").values().stream().map(JsonNode::asString))
                .as("every keyboard stop has a name")
                .allMatch(stop -> stop.matches("[a-z0-9]+: \\S.*"))
                .contains(
                        "a: Payment links",
                        "a: Webhooks",
                        "a: " + HOSTILE_LINK,
                        "input: Endpoint URL",
                        "input: payment.completed",
                        "button: Add endpoint",
                        "button: Copy secret");
    }

    /** The link's QR code: an image of its payment_url that payment-links-service draws, shown on the link's page. */
    private static void qrCode(LocalStack stack, JsonNode walk, String linkId) {
        String src = walk.at("/qr/src").asString();
        assertThat(src).isEqualTo("/checkout/payment_link/qr.svg?payment_id=" + linkId);
        assertThat(walk.at("/qr/alt").asString()).isEqualTo("QR code of the checkout address");
        assertThat(walk.at("/qr/naturalWidth").asInt()).as("the image loaded").isPositive();
        HttpResponse<String> image = httpGet(stack.gatewayUrl() + src);
        assertThat(image.statusCode()).isEqualTo(200);
        assertThat(image.headers().firstValue("Content-Type")).hasValue("image/svg+xml;charset=utf-8");
        assertThat(image.headers().firstValue("Cache-Control")).hasValue("max-age=86400, public");
        assertThat(image.body())
                .startsWith("<svg xmlns=\"http://www.w3.org/2000/svg\"")
                .contains("aria-label=\"QR code of the checkout address "
                        + walk.get("paymentUrl").asString() + "\"");
        // Its events, from before any endpoint existed: listed, sent nowhere.
        assertThat(walk.get("linkWebhooksNote").asString())
                .contains("Events", "payment.created", "payment.completed", "Not sent: no endpoint was subscribed");
    }

    /** The webhook views against what the receiver received and what the API says afterwards. */
    private void webhooks(JsonNode walk, SignedClient merchant) {
        String secret = walk.get("newSecret").asString();
        String rotated = walk.get("rotatedSecret").asString();
        assertThat(secret).matches(SECRET).isEqualTo(walk.get("secretCopied").asString());
        assertThat(rotated).matches(SECRET).isNotEqualTo(secret);
        assertThat(walk.get("secretShownOnce").asBoolean())
                .as("the secret is gone from the next view")
                .isTrue();
        assertThat(walk.get("focusAfterRotate").asString()).isEqualTo("rotated-secret");
        assertThat(walk.get("eventsError").asString()).contains("events");
        assertThat(texts(walk.get("endpointRows")))
                .singleElement()
                .asString()
                .contains(receiver.url(), "Order fulfilment", "payment.created", "payment.completed", "Enabled");

        // The first attempt failed (500): shown in the list, on the delivery, and on the overview.
        assertThat(texts(walk.get("deliveryRows")))
                .singleElement()
                .asString()
                .contains("payment.created", "Pending", "HTTP 500");
        assertThat(walk.get("endpointState").asString()).isEqualTo("failing");
        assertThat(walk.get("deliveryStatusBeforeRetry").asString()).isEqualTo("pending");
        assertThat(texts(walk.get("attemptsBeforeRetry"))).containsExactly("500");
        assertThat(texts(walk.get("failingOnOverview")))
                .singleElement()
                .asString()
                .contains(receiver.url(), "Failing");
        // "Retry" once the receiver succeeds: delivered.
        assertThat(texts(walk.get("attemptsAfterRetry"))).containsExactly("500", "200");
        assertThat(walk.get("retryMessage").asString()).isEqualTo("Delivered.");
        assertThat(walk.get("recoverMessage").asString()).startsWith("No failed delivery since");
        assertThat(texts(walk.get("endpointRowsAfterDelete")))
                .singleElement()
                .asString()
                .contains(receiver.url())
                .doesNotContain("spare.example");

        // The paid webhook link's page: its events newest first, each with its delivery to the endpoint.
        List<String> eventTypes = new ArrayList<>();
        walk.get("linkEvents").forEach(event -> eventTypes.add(event.get("type").asString()));
        assertThat(eventTypes).startsWith("payment.completed").endsWith("payment.created");
        assertThat(walk.get("linkEventsCount").asString()).isEqualTo(eventTypes.size() + " events");
        for (JsonNode event : walk.get("linkEvents")) {
            String type = event.get("type").asString();
            if (type.equals("payment.created") || type.equals("payment.completed")) {
                assertThat(texts(event.get("rows")))
                        .as(type)
                        .singleElement()
                        .asString()
                        .contains(receiver.url(), "Delivered", type.equals("payment.created") ? "2" : "1", "HTTP 200");
            } else {
                assertThat(event.get("text").asString()).as(type).contains("Not sent");
            }
        }
        assertThat(walk.at("/linkEventDelivery/path").asString())
                .startsWith("/dashboard/webhooks/" + walk.get("endpointId").asString() + "/deliveries/");
        assertThat(walk.at("/linkEventDelivery/status").asString()).isEqualTo("succeeded");

        // The receiver's side: the same event twice (refused, then retried), signed with the secret the page showed.
        List<WebhookReceiver.Received> hooks = hooks();
        assertThat(hooks).hasSize(3);
        JsonNode event = JSON.readTree(hooks.get(0).body());
        assertThat(event.get("type").asString()).isEqualTo("payment.created");
        assertThat(event.at("/data/id").asString())
                .isEqualTo(walk.get("webhookLinkId").asString());
        assertThat(hooks.get(1).header("X-Service-Event-Id"))
                .isEqualTo(event.get("id").asString());
        assertThat(hooks.get(1).header("X-Service-Signature"))
                .isEqualTo(WebhookReceiver.hmacHex(secret, hooks.get(1).body()));

        // What follows the rotation is signed with the new secret only: the link's payment.completed, and the next
        // link.
        JsonNode completed = JSON.readTree(hooks.get(2).body());
        assertThat(completed.get("type").asString()).isEqualTo("payment.completed");
        assertThat(completed.at("/data/id").asString())
                .isEqualTo(walk.get("webhookLinkId").asString());
        assertThat(hooks.get(2).header("X-Service-Signature"))
                .isEqualTo(WebhookReceiver.hmacHex(rotated, hooks.get(2).body()));
        String next = createLink(merchant, "After rotation", "3");
        await("the delivery of " + next, Duration.ofSeconds(60), () -> hooks().size() >= 4);
        WebhookReceiver.Received after = hooks().get(3);
        assertThat(JSON.readTree(after.body()).at("/data/id").asString()).isEqualTo(next);
        assertThat(after.header("X-Service-Signature"))
                .isEqualTo(WebhookReceiver.hmacHex(rotated, after.body()))
                .isNotEqualTo(WebhookReceiver.hmacHex(secret, after.body()));

        // The API agrees: the deleted endpoint is gone, the other one delivers again.
        JsonNode endpoints =
                JSON.readTree(merchant.get("/webhook-endpoints").body()).get("data");
        assertThat(endpoints).hasSize(1);
        assertThat(endpoints.get(0).get("id").asString())
                .isEqualTo(walk.get("endpointId").asString());
        assertThat(endpoints.get(0).has("failing_since")).isFalse();
    }

    /** The deliveries the receiver got (not the walk's control calls), in arrival order. */
    private List<WebhookReceiver.Received> hooks() {
        return receiver.received().stream()
                .filter(call -> call.path().equals(WebhookReceiver.DEFAULT_PATH))
                .toList();
    }

    /** The receiver's answers: the walk's control calls, else 500 until told to succeed, then 200. */
    private WebhookReceiver.Reply answer(WebhookReceiver.Received call) {
        if (call.path().equals(CONTROL + "/succeed")) {
            receiverSucceeds.set(true);
            return WebhookReceiver.Reply.status(204);
        }
        if (call.path().equals(CONTROL + "/calls")) {
            return WebhookReceiver.Reply.body(
                    200, String.valueOf(hooks().size()).getBytes(StandardCharsets.UTF_8));
        }
        return receiverSucceeds.get()
                ? WebhookReceiver.Reply.status(200)
                : new WebhookReceiver.Reply(500, Map.of("Retry-After", "3600"), Duration.ZERO);
    }

    private static List<String> texts(JsonNode array) {
        return array.values().stream().map(JsonNode::asString).toList();
    }
}
