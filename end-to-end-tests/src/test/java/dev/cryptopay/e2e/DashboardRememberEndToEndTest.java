package dev.cryptopay.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cryptopay.auth.Mode;
import dev.cryptopay.deploy.SandboxCredentials;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * A merchant's remembered dashboard session ends (issue 36, "trust boundaries"), walked in a real browser (Debian's
 * Chromium driven by playwright-core, see {@code browser/dashboard-remember-walk.mjs}): "Remember on this device"
 * offers 1, 7, 30 (the default) or 90 days; the session survives a reload, and 29 days later; past its period the
 * stored key is erased at load and the sign-in page says the remembered session expired (a chosen day, and a stored
 * period longer than the 90-day cap, the same); a tab left open past it is signed out at its next view; "Forget this
 * device" on the Developers page, declined, changes nothing, and confirmed (with the keyboard) erases the key at once
 * and signs out this tab and the other open one, saying the API key itself is not revoked. axe-core finds nothing
 * serious or critical; screenshots at desktop and phone widths are kept in
 * {@code target/dashboard-screenshots/remember-*.png}.
 */
class DashboardRememberEndToEndTest {

    private static final Path SCREENSHOTS = Path.of("target", "dashboard-screenshots");
    private static final Duration WALK_LIMIT = Duration.ofMinutes(4);
    private static final long DAY = Duration.ofDays(1).toMillis();

    @Test
    void aRememberedSessionExpiresAndCanBeForgottenFromTheDevelopersPage() throws Exception {
        SandboxCredentials credentials = SuiteStack.get().newMerchant("Remember Walk Shop", Mode.TEST);
        Path keyFile = Files.createTempFile("dashboard-remember", ".key");
        Files.writeString(keyFile, credentials.privateKey());

        JsonNode walk = NodeTools.runWalk(
                "dashboard-remember-walk.mjs",
                WALK_LIMIT,
                SuiteStack.get().gatewayUrl(),
                credentials.apiKey(),
                keyFile.toAbsolutePath().toString(),
                SCREENSHOTS.toAbsolutePath().toString());

        // session.js's rules: the choices, 30 days by default, never more than 90, a time in the future not trusted.
        JsonNode rules = walk.get("rules");
        assertThat(rules.get("choices").values().stream().map(JsonNode::asInt)).containsExactly(1, 7, 30, 90);
        assertThat(rules.get("defaultDays").asInt()).isEqualTo(30);
        assertThat(rules.get("maxDays").asInt()).isEqualTo(90);
        assertThat(rules.get("fromTrue").asInt()).isEqualTo(30);
        assertThat(rules.get("fromSelect").asInt()).isEqualTo(7);
        assertThat(rules.get("fromTooLong").asInt()).isEqualTo(90);
        assertThat(rules.get("fromOdd").asInt()).isEqualTo(30);
        assertThat(rules.get("untilDefault").asLong()).isEqualTo(30 * DAY);
        assertThat(rules.get("untilTampered").asLong()).isEqualTo(90 * DAY);
        assertThat(rules.get("untilWithoutTime").asLong()).isZero();
        assertThat(rules.get("expiredAt29Days").asBoolean()).isFalse();
        assertThat(rules.get("expiredAt30Days").asBoolean()).isTrue();
        assertThat(rules.get("expiredInTheFuture").asBoolean()).isTrue();
        assertThat(rules.get("expiredWithoutTime").asBoolean()).isTrue();

        // The sign-in form: the period shown once "remember" is ticked, 30 days unless chosen.
        assertThat(walk.get("periodControls").asInt()).isEqualTo(1);
        assertThat(walk.get("periodHiddenUnticked").asBoolean()).isTrue();
        assertThat(walk.get("periodChoices").values().stream().map(JsonNode::asString))
                .containsExactly("1 day", "7 days", "30 days", "90 days");
        assertThat(walk.get("periodDefault").asString()).isEqualTo("30");
        assertThat(walk.get("rememberControls").asString()).isEqualTo("remember-for-row");
        assertThat(walk.get("periodHiddenUntickedAgain").asBoolean()).isTrue();

        // Remembered: when and for how long, the key still not extractable; kept across a reload.
        JsonNode stored = walk.get("stored");
        assertThat(stored.get("apiKey").asString()).isEqualTo(credentials.apiKey());
        assertThat(stored.get("days").asInt()).isEqualTo(30);
        assertThat(stored.get("age").asLong())
                .isBetween(0L, Duration.ofMinutes(2).toMillis());
        assertThat(stored.get("keyType").asString()).isEqualTo("CryptoKey");
        assertThat(stored.get("extractable").asBoolean()).isFalse();
        assertThat(walk.get("rememberedAfterReload").asBoolean()).isTrue();

        // The Developers page: until when, and what forgetting does (and does not do).
        assertThat(walk.get("deviceRemembered").asString()).isEqualTo("true");
        assertThat(walk.get("deviceStatus").asString())
                .startsWith("This browser remembers your API key and private key until ")
                .contains("(30 days from when you signed in)");
        assertThat(walk.get("forgetHint").asString())
                .contains("erases the key from this browser at once", "does not revoke the API key", "revoke the key");
        assertThat(walk.get("forgetDescribedBy").asString()).isEqualTo("device-status forget-hint");

        // 29 days on: still there. 31: erased at load, the sign-in page says so (once), the navigation hidden.
        assertThat(walk.get("rememberedAfter29Days").asBoolean()).isTrue();
        assertThat(walk.get("storedAfterExpiry").isNull()).isTrue();
        assertThat(walk.get("expiredNotices").values().stream().map(JsonNode::asString))
                .singleElement()
                .satisfies(text -> assertThat(text)
                        .startsWith(
                                "Your remembered session has expired: this device kept your key for 30 days, until ")
                        .endsWith("and has now forgotten it. Please sign in again with your API key and key file."));
        assertThat(walk.get("pathAfterExpiry").asString()).isEqualTo("/dashboard/signin");
        assertThat(walk.get("navHiddenAfterExpiry").asBoolean()).isTrue();
        assertThat(walk.get("noticesOnTheNextLoad")).isEmpty();

        // One day chosen: over after a day. A stored period of 365 days: over after 90.
        assertThat(walk.at("/storedOneDay/days").asInt()).isEqualTo(1);
        assertThat(walk.get("oneDayNotices").values().stream().map(JsonNode::asString))
                .singleElement()
                .satisfies(text -> assertThat(text).contains("kept your key for 1 day, until "));
        assertThat(walk.get("storedAfterOneDay").isNull()).isTrue();
        assertThat(walk.at("/storedNinetyDays/days").asInt()).isEqualTo(90);
        assertThat(walk.get("cappedNotices").values().stream().map(JsonNode::asString))
                .singleElement()
                .satisfies(text -> assertThat(text).contains("kept your key for 90 days, until "));
        assertThat(walk.get("storedAfterCap").isNull()).isTrue();

        // A tab left open past the period: signed out at its next view.
        assertThat(walk.get("openTabNotices").values().stream().map(JsonNode::asString))
                .singleElement()
                .satisfies(text -> assertThat(text).startsWith("Your remembered session has expired"));
        assertThat(walk.get("storedAfterOpenTab").isNull()).isTrue();

        // "Forget this device": declined, nothing changes; confirmed, erased at once, both tabs signed out.
        assertThat(walk.get("declinedHeading").asString()).isEqualTo("Developers");
        assertThat(walk.get("declinedFocus").asString()).isEqualTo("forget-device");
        assertThat(walk.at("/storedAfterDeclined/apiKey").asString()).isEqualTo(credentials.apiKey());
        assertThat(walk.get("storedAfterForget").isNull()).isTrue();
        assertThat(walk.get("forgetNotices").values().stream().map(JsonNode::asString))
                .singleElement()
                .satisfies(text -> assertThat(text)
                        .startsWith("This device has forgotten your key and you are signed out.")
                        .contains("Your API key still works"));
        assertThat(walk.at("/focusAfterForget/tag").asString()).isEqualTo("h1");
        assertThat(walk.at("/focusAfterForget/name").asString()).isEqualTo("Sign in");
        assertThat(walk.get("otherTabNotices").values().stream().map(JsonNode::asString))
                .singleElement()
                .satisfies(
                        text -> assertThat(text).startsWith("This device has forgotten your key (from another tab)"));
        assertThat(walk.get("noticesAfterForgetReload")).isEmpty();
        assertThat(walk.get("storedAfterForgetReload").isNull()).isTrue();
        assertThat(walk.get("dialogs").values().stream()
                        .map(d -> d.get("message").asString()))
                .hasSize(2)
                .allSatisfy(message -> assertThat(message)
                        .startsWith("Forget this device?")
                        .contains("The API key itself is not revoked."));

        // Nothing refused but the receiving key this merchant has not registered (the Developers page asks), no other
        // console error; nothing serious or critical; nothing wider than a phone.
        assertThat(NodeTools.refusedRequests(walk))
                .containsOnly("GET /api/v1/payment_links/receiving_key 404 not_found");
        assertThat(walk.get("axe").propertyNames()).contains("signin", "developers", "expired", "forgotten");
        NodeTools.assertPagesClean(
                walk, SCREENSHOTS, "remember-", List.of("1-signin", "2-developers", "3-expired", "4-forgotten"));
    }
}
