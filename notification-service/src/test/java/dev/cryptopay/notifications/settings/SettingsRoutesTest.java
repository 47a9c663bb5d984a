package dev.cryptopay.notifications.settings;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cryptopay.auth.Mode;
import dev.cryptopay.auth.internal.MerchantIdentity;
import dev.cryptopay.notifications.NotificationTestBase;
import dev.cryptopay.testsupport.mail.TestMail;
import jakarta.mail.internet.InternetAddress;
import jakarta.mail.internet.MimeMessage;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.WebTestClient;
import tools.jackson.databind.JsonNode;

class SettingsRoutesTest extends NotificationTestBase {

    @Test
    void aMerchantThatNeverChangedAnythingHasEveryEmailOnAndNoNameOrSupportAddress() {
        JsonNode body = read(get(newMerchant()).expectStatus().isOk());

        assertThat(body.get("message").asString()).isEqualTo("Notification settings retrieved");
        JsonNode data = body.get("data");
        assertThat(data.has("display_name")).isFalse();
        assertThat(data.has("support_email")).isFalse();
        assertThat(data.has("updated_at")).isFalse();
        assertThat(data.get("livemode").asBoolean()).isFalse();
        assertThat(data.get("emails").propertyNames())
                .containsExactly(
                        "subscription_invitation",
                        "subscription_active",
                        "subscription_reminder",
                        "subscription_receipt",
                        "subscription_payment_missed",
                        "subscription_cancelled",
                        "payment_receipt");
        assertThat(data.get("emails").valueStream()).allMatch(JsonNode::asBoolean);
    }

    @Test
    void anUpdateChangesWhatItNamesKeepsTheRestAndNullClears() {
        MerchantIdentity merchant = newMerchant();
        JsonNode first = read(put(
                                merchant,
                                "{\"display_name\":\"  Café & Co \",\"support_email\":\"help@cafe.test\","
                                        + "\"emails\":{\"subscription_receipt\":false,\"payment_receipt\":false}}")
                        .expectStatus()
                        .isOk())
                .get("data");
        assertThat(first.get("display_name").asString()).isEqualTo("Café & Co");
        assertThat(first.get("support_email").asString()).isEqualTo("help@cafe.test");
        assertThat(first.get("emails").get("subscription_receipt").asBoolean()).isFalse();
        assertThat(first.get("emails").get("payment_receipt").asBoolean()).isFalse();
        assertThat(first.get("emails").get("subscription_invitation").asBoolean())
                .isTrue();
        assertThat(first.get("updated_at").asString()).isEqualTo(clock.instant().toString());

        JsonNode second = read(put(merchant, "{\"support_email\":null,\"emails\":{\"payment_receipt\":true}}")
                        .expectStatus()
                        .isOk())
                .get("data");
        assertThat(second.get("display_name").asString()).as("left out: kept").isEqualTo("Café & Co");
        assertThat(second.has("support_email")).as("null: cleared").isFalse();
        assertThat(second.get("emails").get("subscription_receipt").asBoolean()).isFalse();
        assertThat(second.get("emails").get("payment_receipt").asBoolean()).isTrue();
        assertThat(read(get(merchant).expectStatus().isOk()).get("data")).isEqualTo(second);
    }

    @Test
    void eachModeAndMerchantHasItsOwnSettings() {
        UUID id = UUID.randomUUID();
        MerchantIdentity test = new MerchantIdentity(id, Mode.TEST);
        MerchantIdentity live = new MerchantIdentity(id, Mode.LIVE);
        put(test, "{\"display_name\":\"Sandbox name\"}").expectStatus().isOk();

        JsonNode liveSettings = read(get(live).expectStatus().isOk()).get("data");
        assertThat(liveSettings.has("display_name")).isFalse();
        assertThat(liveSettings.get("livemode").asBoolean()).isTrue();
        assertThat(read(get(newMerchant()).expectStatus().isOk()).get("data").has("display_name"))
                .isFalse();
    }

    @Test
    void badBodiesAre400sNamingEachField() {
        MerchantIdentity merchant = newMerchant();
        JsonNode problem = read(put(
                        merchant,
                        "{\"display_name\":\"a\\nb\",\"support_email\":\"not an address\","
                                + "\"emails\":{\"weekly_digest\":true,\"payment_receipt\":\"no\"},\"colour\":1}")
                .expectStatus()
                .isBadRequest());
        assertThat(problem.get("code").asString()).isEqualTo("validation_failed");
        assertThat(problem.get("errors")
                        .valueStream()
                        .map(error -> error.get("field").asString()))
                .containsExactlyInAnyOrder(
                        "colour", "display_name", "support_email", "emails.weekly_digest", "emails.payment_receipt");
        assertThat(read(put(merchant, "{\"emails\":[]}").expectStatus().isBadRequest())
                        .get("message")
                        .asString())
                .isEqualTo("emails must be an object of e-mail names and true or false");
        assertThat(read(put(merchant, "{\"display_name\":\"" + "x".repeat(101) + "\"}")
                                .expectStatus()
                                .isBadRequest())
                        .get("errors")
                        .get(0)
                        .get("field")
                        .asString())
                .isEqualTo("display_name");
        put(merchant, "[]").expectStatus().isBadRequest();
        put(merchant, "").expectStatus().isBadRequest();
        assertThat(read(get(merchant).expectStatus().isOk()).get("data").has("updated_at"))
                .as("nothing stored")
                .isFalse();
    }

    @Test
    void updatesAtOnceAreAppliedOneAfterTheOther() {
        MerchantIdentity merchant = newMerchant();
        List<CompletableFuture<Void>> updates = List.of(
                        "subscription_invitation",
                        "subscription_active",
                        "subscription_reminder",
                        "subscription_receipt",
                        "subscription_payment_missed",
                        "subscription_cancelled",
                        "payment_receipt")
                .stream()
                .map(email -> CompletableFuture.runAsync(() -> put(merchant, "{\"emails\":{\"" + email + "\":false}}")
                        .expectStatus()
                        .isOk()))
                .toList();
        updates.forEach(CompletableFuture::join);

        assertThat(read(get(merchant).expectStatus().isOk())
                        .get("data")
                        .get("emails")
                        .valueStream())
                .as("no update lost another's switch")
                .noneMatch(JsonNode::asBoolean);
    }

    @Test
    void theSettingsShapeTheEmailsOfLaterEvents() throws Exception {
        MerchantIdentity merchant = newMerchant();
        put(
                        merchant,
                        "{\"display_name\":\"Zoë's <Shop>\",\"support_email\":\"help@zoe.test\","
                                + "\"emails\":{\"subscription_cancelled\":false}}")
                .expectStatus()
                .isOk();
        String to = address("settings");
        Map<String, Object> notify = Map.of("customer_email", to, "merchant_name", "Name in the event");
        String cancelled = publish(
                "subscriptions.events",
                merchant,
                "subscription.cancelled",
                Map.of("subscriber_id", UUID.randomUUID().toString(), "status", "cancelled"),
                notify);
        String activated = publish(
                "subscriptions.events",
                merchant,
                "subscription.activated",
                Map.of("subscriber_id", UUID.randomUUID().toString(), "status", "active"),
                notify);
        await("kept", () -> notificationsOf(activated) == 1);
        sender.drain().block();

        assertThat(notificationsOf(cancelled)).as("switched off").isZero();
        List<MimeMessage> received = TestMail.await(to, 1, Duration.ofSeconds(10));
        assertThat(received).hasSize(1);
        MimeMessage mail = received.get(0);
        assertThat(((InternetAddress) mail.getFrom()[0]).getPersonal()).isEqualTo("Zoë's <Shop> via CryptoPay");
        assertThat(((InternetAddress) mail.getReplyTo()[0]).getAddress()).isEqualTo("help@zoe.test");
        assertThat(mail.getSubject()).isEqualTo("[Test mode] Your subscription to your plan is active");
    }

    private WebTestClient.ResponseSpec get(MerchantIdentity merchant) {
        return as(merchant, HttpMethod.GET, "/notifications/settings").exchange();
    }

    private WebTestClient.ResponseSpec put(MerchantIdentity merchant, String body) {
        return as(merchant, HttpMethod.PUT, "/notifications/settings")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(body)
                .exchange();
    }
}
