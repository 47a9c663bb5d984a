package dev.cryptopay.subscriptions.nft;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cryptopay.auth.internal.MerchantIdentity;
import dev.cryptopay.subscriptions.SubscriptionsTestBase;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpMethod;
import tools.jackson.databind.JsonNode;

class NftTest extends SubscriptionsTestBase {

    @Test
    void metadataDescribesThePlanAndItsImageIsServed() {
        MerchantIdentity merchant = newMerchant();
        Map<String, Object> terms = amountPlan("Gold <script>alert(1)</script> & co");
        JsonNode plan = createPlan(merchant, terms);
        String id = plan.get("id").asString();

        JsonNode meta = read(as(null, HttpMethod.GET, "/public/subscriptions/nft/" + id)
                .exchange()
                .expectStatus()
                .isOk());
        assertThat(meta.get("name").asString()).isEqualTo("Gold <script>alert(1)</script> & co");
        assertThat(meta.get("description").asString()).contains("10 USDC every 30 days on Local dev chain");
        assertThat(meta.get("image").asString())
                .isEqualTo("https://sandbox.cryptopay.dev/api/v1/public/subscriptions/nft/" + id + "/image.svg");
        assertThat(meta.get("external_url").asString()).endsWith("/public/subscriptions/plans/" + id);
        assertThat(meta.get("attributes"))
                .extracting(a ->
                        a.get("trait_type").asString() + "=" + a.get("value").asString())
                .contains(
                        "Amount=10 USDC",
                        "Token=USDC",
                        "Interval=30 days",
                        "Trial=7 days",
                        "Network=Local dev chain",
                        "Chain ID=31337");

        String imagePath = meta.get("image").asString().replace("https://sandbox.cryptopay.dev/api/v1", "");
        var image = as(null, HttpMethod.GET, imagePath)
                .exchange()
                .expectStatus()
                .isOk()
                .expectHeader()
                .contentType("image/svg+xml")
                .expectHeader()
                .valueEquals("X-Content-Type-Options", "nosniff")
                .expectBody(String.class)
                .returnResult()
                .getResponseBody();
        assertThat(image)
                .startsWith("<svg")
                .contains("10 USDC")
                .contains("&lt;script&gt;")
                .doesNotContain("<script>");

        as(null, HttpMethod.GET, "/public/subscriptions/nft/" + UUID.randomUUID())
                .exchange()
                .expectStatus()
                .isNotFound();
        as(null, HttpMethod.GET, "/public/subscriptions/nft/x/image.svg")
                .exchange()
                .expectStatus()
                .isBadRequest();
    }
}
