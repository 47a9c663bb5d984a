package dev.cryptopay.subscriptions.page;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cryptopay.auth.internal.MerchantIdentity;
import java.math.BigInteger;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpMethod;
import org.web3j.protocol.core.methods.response.TransactionReceipt;
import tools.jackson.databind.JsonNode;

/**
 * A subscription its merchant stopped still stands on the contract: the customer's page says so and offers the
 * contract's cancel (live updates go on), until the contract's {@code Cancelled} log ends it.
 */
class SubscribePageStopsTest extends SubscribePageTestBase {

    @Test
    void aStoppedSubscriptionOffersItsEndOnChainUntilTheContractEndsIt() {
        MerchantIdentity merchant = newMerchant();
        JsonNode[] invited = invitation(merchant, amountPlan("Stopped page"), Map.of());
        String subscriberId = invited[1].get("id").asString();
        JsonNode link = enrol(invited[0].get("id").asString(), subscriberId);
        JsonNode stopped = read(send(
                        merchant,
                        HttpMethod.PUT,
                        "/subscriptions/link/" + link.get("id").asString(),
                        Map.of("is_active", false))
                .expectStatus()
                .isOk());
        JsonNode cancel = stopped.get("cancel_transaction");

        String html = html(subscriberId);
        assertThat(html)
                .contains("data-state=\"cancelled\" data-terminal=\"false\" data-chain-status=\"subscribed\"")
                .contains("id=\"cancel-subscription\"");
        assertThat(element(html, "state-detail")).contains("still stand on the contract");
        assertThat(element(html, "calldata-cancel"))
                .isEqualTo(cancel.get("data").asString());
        JsonNode status = status(subscriberId);
        assertThat(status.get("state").asString()).isEqualTo("cancelled");
        assertThat(status.get("terminal").asBoolean())
                .as("the customer can still end it here")
                .isFalse();
        assertThat(status.get("chain_status").asString()).isEqualTo("subscribed");

        TransactionReceipt ended = CHAIN.sendTransaction(
                WALLET, cancel.get("to").asString(), cancel.get("data").asString(), BigInteger.ZERO);
        assertThat(reportLogs(ended)).containsExactly("applied");
        String after = html(subscriberId);
        assertThat(after)
                .contains("data-state=\"cancelled\" data-terminal=\"true\" data-chain-status=\"ended\"")
                .doesNotContain("id=\"cancel-subscription\"");
        assertThat(element(after, "state-detail"))
                .isEqualTo("This subscription is cancelled: no further payments will be taken from your wallet.");
        assertThat(status(subscriberId).get("terminal").asBoolean()).isTrue();
    }
}
