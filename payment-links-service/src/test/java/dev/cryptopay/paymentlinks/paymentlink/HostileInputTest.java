package dev.cryptopay.paymentlinks.paymentlink;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cryptopay.auth.internal.MerchantIdentity;
import dev.cryptopay.paymentlinks.PaymentLinksTestBase;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpMethod;
import tools.jackson.databind.JsonNode;

/**
 * Inputs an attacker sends: each is a quick 400 naming the field, never a 500 or a stalled event loop, and the
 * service answers the next request at once.
 */
class HostileInputTest extends PaymentLinksTestBase {

    @Test
    void hugeAndTinyExponentsAreRefusedBeforeAnyArithmetic() {
        MerchantIdentity merchant = newMerchant();
        long started = System.nanoTime();
        for (String body : List.of(
                "{\"payment_name\":\"Tea\",\"amount\":1e100000001,\"currency\":\"USDC\"}",
                "{\"payment_name\":\"Tea\",\"amount\":1e-100000001,\"currency\":\"USDC\"}",
                "{\"payment_name\":\"Tea\",\"amount\":3,\"currency\":\"USDC\",\"webhook_metadata\":{\"n\":1e100000000}}",
                "{\"payment_name\":\"Tea\",\"amount\":3,\"currency\":\"USDC\",\"webhook_metadata\":{\"n\":[1e-100000000]}}")) {
            JsonNode problem = read(create(merchant, body).expectStatus().isBadRequest());
            assertThat(problem.get("status").asInt()).isEqualTo(400);
        }
        assertThat(Duration.ofNanos(System.nanoTime() - started))
                .as("refused without expanding the numbers")
                .isLessThan(Duration.ofSeconds(10));
        createOk(merchant, "{\"payment_name\":\"Tea\",\"amount\":3,\"currency\":\"USDC\"}");
    }

    @Test
    void nulCharactersAreRefusedWhereverTheyWouldBeStored() {
        MerchantIdentity merchant = newMerchant();
        JsonNode name = read(create(merchant, "{\"payment_name\":\"Te\\u0000a\",\"amount\":3,\"currency\":\"USDC\"}")
                .expectStatus()
                .isBadRequest());
        assertThat(name.get("errors").get(0).get("field").asString()).isEqualTo("payment_name");
        assertThat(name.get("message").asString()).contains("NUL");
        JsonNode metadata = read(create(
                        merchant,
                        "{\"payment_name\":\"Tea\",\"amount\":3,\"currency\":\"USDC\","
                                + "\"webhook_metadata\":{\"k\\u0000\":\"v\"}}")
                .expectStatus()
                .isBadRequest());
        assertThat(metadata.get("errors").get(0).get("field").asString()).isEqualTo("webhook_metadata");
        create(
                        merchant,
                        "{\"payment_name\":\"Tea\",\"amount\":3,\"currency\":\"USDC\","
                                + "\"webhook_metadata\":{\"k\":[\"v\\u0000\"]}}")
                .expectStatus()
                .isBadRequest();
    }

    @Test
    void listFiltersOutsideWhatTheDatabaseHoldsAreRefused() {
        MerchantIdentity merchant = newMerchant();
        for (String query : List.of(
                "created_to=%2B100000-01-01T00:00:00Z",
                "created_to=%2B999999999-12-31",
                "created_from=-999999999-01-01",
                "created_from=-5000-01-01",
                "min_amount=1e100000000",
                "max_amount=0.0000000000000000001",
                "search=a%00b")) {
            // Sent exactly as encoded: %00 must reach the service as a NUL.
            JsonNode problem = read(asEncoded(merchant, HttpMethod.GET, "/payment_links?" + query)
                    .exchange()
                    .expectStatus()
                    .isBadRequest());
            assertThat(problem.get("code").asString()).as(query).isEqualTo("validation_failed");
        }
        get(merchant, "/payment_links?created_to=9999-12-31").expectStatus().isOk();
    }
}
