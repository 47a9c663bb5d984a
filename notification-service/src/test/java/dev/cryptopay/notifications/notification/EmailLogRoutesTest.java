package dev.cryptopay.notifications.notification;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cryptopay.auth.Mode;
import dev.cryptopay.auth.internal.MerchantIdentity;
import dev.cryptopay.notifications.NotificationTestBase;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpMethod;
import org.springframework.test.web.reactive.server.WebTestClient;
import tools.jackson.databind.JsonNode;

class EmailLogRoutesTest extends NotificationTestBase {

    @Test
    void theLogListsTheMerchantsEmailsNewestFirstWithWhatBecameOfThem() {
        MerchantIdentity merchant = newMerchant();
        String ada = address("ada");
        String bob = address("bob");
        String first = invite(merchant, ada);
        clock.advance(java.time.Duration.ofSeconds(1));
        String second = invite(merchant, bob);
        sender.drain().block();

        JsonNode page = read(list(merchant, "").expectStatus().isOk());
        assertThat(page.get("message").asString()).isEqualTo("E-mails retrieved");
        JsonNode emails = page.get("data").get("data");
        assertThat(emails.valueStream().map(email -> email.get("event_id").asString()))
                .containsExactly(second, first);
        JsonNode latest = emails.get(0);
        assertThat(latest.get("template").asString()).isEqualTo("subscription_invitation");
        assertThat(latest.get("event_type").asString()).isEqualTo("subscriber.invited");
        assertThat(latest.get("recipient").asString()).isEqualTo(bob);
        assertThat(latest.get("subject").asString()).isEqualTo("[Test mode] Shop invites you to subscribe: Pro");
        assertThat(latest.get("status").asString()).isEqualTo("sent");
        assertThat(latest.get("attempts").asInt()).isEqualTo(1);
        assertThat(latest.get("sent_at").asString()).isEqualTo(clock.instant().toString());
        assertThat(latest.has("last_error")).isFalse();
        assertThat(latest.has("next_attempt_at")).isFalse();
        assertThat(latest.has("text")).as("only on the single e-mail").isFalse();
        assertThat(latest.get("livemode").asBoolean()).isFalse();
        assertThat(page.get("data").get("pagination").get("total_records").asLong())
                .isEqualTo(2);

        JsonNode one = read(as(
                                merchant,
                                HttpMethod.GET,
                                "/notifications/emails/" + latest.get("id").asString())
                        .exchange()
                        .expectStatus()
                        .isOk())
                .get("data");
        assertThat(one.get("text").asString()).contains("Shop invites you to subscribe to Pro");
        assertThat(one.get("id")).isEqualTo(latest.get("id"));
    }

    @Test
    void filtersByRecipientStatusTemplateAndTimeAndRefusesBadOnes() {
        MerchantIdentity merchant = newMerchant();
        String ada = address("ada");
        invite(merchant, ada);
        invite(merchant, address("other"));

        JsonNode byRecipient = read(
                list(merchant, "?recipient=" + ada.toUpperCase()).expectStatus().isOk());
        assertThat(byRecipient
                        .get("data")
                        .get("data")
                        .valueStream()
                        .map(email -> email.get("recipient").asString()))
                .containsExactly(ada);
        JsonNode pending = read(list(merchant, "?status=pending&template=subscription_invitation&limit=1")
                        .expectStatus()
                        .isOk())
                .get("data");
        assertThat(pending.get("data").get(0).get("next_attempt_at").asString())
                .isEqualTo(clock.instant().toString());
        assertThat(pending.get("pagination").get("total_records").asLong()).isEqualTo(2);
        assertThat(pending.get("pagination").get("has_next_page").asBoolean()).isTrue();
        assertThat(read(list(merchant, "?status=sent").expectStatus().isOk())
                        .get("data")
                        .get("data")
                        .isEmpty())
                .isTrue();
        assertThat(read(list(merchant, "?created_from=" + clock.instant().plusSeconds(1))
                                .expectStatus()
                                .isOk())
                        .get("data")
                        .get("pagination")
                        .get("total_records")
                        .asLong())
                .isZero();

        JsonNode problem = read(list(merchant, "?status=bounced&template=digest&limit=0")
                .expectStatus()
                .isBadRequest());
        assertThat(problem.get("errors")
                        .valueStream()
                        .map(error -> error.get("field").asString()))
                .contains("status", "template", "limit");
        sender.drain().block();
    }

    @Test
    void anotherMerchantOrModeSeesNothingAndBadIdsAreRefused() {
        MerchantIdentity merchant = newMerchant();
        invite(merchant, address("private"));
        String id = read(list(merchant, "").expectStatus().isOk())
                .get("data")
                .get("data")
                .get(0)
                .get("id")
                .asString();

        MerchantIdentity other = newMerchant();
        MerchantIdentity live = new MerchantIdentity(merchant.merchantId(), Mode.LIVE);
        for (MerchantIdentity stranger : new MerchantIdentity[] {other, live}) {
            assertThat(read(list(stranger, "").expectStatus().isOk())
                            .get("data")
                            .get("pagination")
                            .get("total_records")
                            .asLong())
                    .isZero();
            assertThat(read(as(stranger, HttpMethod.GET, "/notifications/emails/" + id)
                                    .exchange()
                                    .expectStatus()
                                    .isNotFound())
                            .get("message")
                            .asString())
                    .isEqualTo("E-mail not found");
        }
        assertThat(read(as(merchant, HttpMethod.GET, "/notifications/emails/not-a-uuid")
                                .exchange()
                                .expectStatus()
                                .isBadRequest())
                        .get("code")
                        .asString())
                .isEqualTo("invalid_id");
        sender.drain().block();
    }

    /** Publishes an invitation to {@code to} and waits until its e-mail is kept; answers the event id. */
    private String invite(MerchantIdentity merchant, String to) {
        String event = publish(
                "subscriptions.events",
                merchant,
                "subscriber.invited",
                Map.of("subscriber_id", UUID.randomUUID().toString(), "status", "invitation_sent"),
                Map.of("customer_email", to, "merchant_name", "Shop", "plan_name", "Pro"));
        await("e-mail kept", () -> notificationsOf(event) == 1);
        return event;
    }

    private WebTestClient.ResponseSpec list(MerchantIdentity merchant, String query) {
        return as(merchant, HttpMethod.GET, "/notifications/emails" + query).exchange();
    }
}
