package dev.cryptopay.subscriptions.subscription;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cryptopay.auth.internal.MerchantIdentity;
import dev.cryptopay.subscriptions.SubscriptionsTestBase;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpMethod;
import tools.jackson.databind.JsonNode;

/**
 * Every PUT tells a member left out (kept), sent as {@code null} (removed, where the field may be empty; otherwise a
 * 400 naming it) and sent with a value apart.
 */
class PatchSemanticsTest extends SubscriptionsTestBase {

    @Test
    void aPlansMetadataUriIsRemovedByNullAndItsNameCannotBe() {
        MerchantIdentity merchant = newMerchant();
        String uri = "/subscriptions/plans/"
                + createPlan(merchant, amountPlan("Pro")).get("id").asString();
        send(merchant, HttpMethod.PUT, uri, Map.of("metadata_uri", "https://x.test/m"))
                .expectStatus()
                .isOk();

        JsonNode renamed = read(send(merchant, HttpMethod.PUT, uri, "{\"name\":\"Pro+\"}")
                .expectStatus()
                .isOk());
        assertThat(renamed.get("metadata_uri").asString()).as("left out: kept").isEqualTo("https://x.test/m");

        JsonNode cleared = read(send(merchant, HttpMethod.PUT, uri, "{\"metadata_uri\":null}")
                .expectStatus()
                .isOk());
        assertThat(cleared.get("metadata_uri").isNull()).as("null: removed").isTrue();
        assertThat(cleared.get("name").asString()).isEqualTo("Pro+");

        assertRefused(merchant, uri, "{\"name\":null}", "name");
        assertRefused(merchant, uri, "{\"status\":null}", "status");
        assertThat(read(get(merchant, uri).expectStatus().isOk()).get("name").asString())
                .as("a refused body changes nothing")
                .isEqualTo("Pro+");
    }

    @Test
    void aSubscribersNameAndEmailAreRemovedByNullAndItsStatusCannotBe() {
        MerchantIdentity merchant = newMerchant();
        String planId = createPlan(merchant, amountPlan("Pro")).get("id").asString();
        String uri = "/subscriber/"
                + createSubscriber(merchant, planId, "Ada", "ada@example.com")
                        .get("id")
                        .asString();

        JsonNode cleared = read(send(merchant, HttpMethod.PUT, uri, "{\"customer_email\":null}")
                .expectStatus()
                .isOk());
        assertThat(cleared.get("customer_email").isNull()).isTrue();
        assertThat(cleared.get("customer_name").asString()).as("left out: kept").isEqualTo("Ada");

        assertRefused(merchant, uri, "{\"status\":null}", "status");

        // The customer's own route reads its body the same way.
        JsonNode customer = read(as(null, HttpMethod.PUT, "/public" + uri)
                .contentType(org.springframework.http.MediaType.APPLICATION_JSON)
                .bodyValue("{\"customer_name\":null}")
                .exchange()
                .expectStatus()
                .isOk());
        assertThat(customer.get("customer_name").isNull()).isTrue();
    }

    @Test
    void aLinksEndIsRemovedByNullAndItsFlagsCannotBe() {
        MerchantIdentity merchant = newMerchant();
        String planId = createPlan(merchant, amountPlan("Pro")).get("id").asString();
        JsonNode link = enrol(
                planId,
                createSubscriber(merchant, planId, "Ada", null).get("id").asString());
        String uri = "/subscriptions/link/" + link.get("id").asString();
        Instant end = clock.instant().plus(Duration.ofDays(400));

        send(merchant, HttpMethod.PUT, uri, Map.of("expires_at", end.toString()))
                .expectStatus()
                .isOk();
        JsonNode locked = read(send(merchant, HttpMethod.PUT, uri, "{\"locked\":true}")
                .expectStatus()
                .isOk());
        assertThat(Instant.parse(locked.get("expires_at").asString()))
                .as("left out: kept")
                .isEqualTo(end);

        JsonNode endless = read(send(merchant, HttpMethod.PUT, uri, "{\"locked\":false,\"expires_at\":null}")
                .expectStatus()
                .isOk());
        assertThat(endless.get("expires_at").isNull())
                .as("null: the link no longer ends")
                .isTrue();
        assertThat(endless.get("locked").asBoolean()).isFalse();

        for (String member : new String[] {"is_active", "locked", "owed", "trial_ends_at"}) {
            assertRefused(merchant, uri, "{\"" + member + "\":null}", member);
        }
        walletPut(link.get("id").asString(), "{\"is_active\":null}")
                .expectStatus()
                .isBadRequest();
    }

    private void assertRefused(MerchantIdentity merchant, String uri, String body, String field) {
        JsonNode problem =
                read(send(merchant, HttpMethod.PUT, uri, body).expectStatus().isBadRequest());
        assertThat(problem.get("code").asString()).isEqualTo("validation_failed");
        assertThat(problem.get("errors").get(0).get("field").asString()).isEqualTo(field);
        assertThat(problem.get("message").asString())
                .isEqualTo(field + " cannot be null; leave it out to keep its value");
    }
}
