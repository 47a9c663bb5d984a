package dev.cryptopay.subscriptions.subscription;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cryptopay.auth.internal.MerchantIdentity;
import dev.cryptopay.subscriptions.SubscriptionsTestBase;
import dev.cryptopay.testsupport.TestKafka;
import dev.cryptopay.testsupport.chain.DevChain;
import java.math.BigInteger;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpMethod;
import org.web3j.protocol.core.methods.response.TransactionReceipt;
import tools.jackson.databind.JsonNode;

/**
 * A stop stops the money, on the real contract (anvil): a link that no longer bills offers the contract's
 * {@code cancel} to end its subscription for everyone; a period someone else collects meanwhile is recorded and
 * flagged on the link, the payment and the event, and counted; once the contract ends the subscription the link is
 * {@code ended} and cannot restart.
 */
class StopsTest extends SubscriptionsTestBase {

    private static final long TRIAL = 7 * 86_400;

    @Test
    void aStoppedLinkOffersTheContractsCancelAndAPeriodCollectedMeanwhileIsFlagged() {
        MerchantIdentity merchant = newMerchant();
        JsonNode plan = createPlan(merchant, amountPlan("Stopped"));
        String subscriberId = createSubscriber(merchant, plan.get("id").asString(), "Ada", "ada@example.com")
                .get("id")
                .asString();
        JsonNode link = enrol(plan.get("id").asString(), subscriberId);
        String linkUri = "/subscriptions/link/" + link.get("id").asString();
        String subscriptionId = link.get("chain_subscription_id").asString();
        assertThat(link.has("cancel_transaction"))
                .as("an active link has nothing to end")
                .isFalse();

        JsonNode stopped = read(send(merchant, HttpMethod.PUT, linkUri, Map.of("is_active", false))
                .expectStatus()
                .isOk());
        assertThat(stopped.get("is_active").asBoolean()).isFalse();
        assertThat(stopped.get("chain_status").asString()).isEqualTo("subscribed");
        assertThat(stopped.get("collected_after_stop").asBoolean()).isFalse();
        JsonNode cancel = stopped.get("cancel_transaction");
        assertThat(cancel.get("to").asString()).isEqualToIgnoringCase(DevChain.SUBSCRIPTION_CONTRACT);
        assertThat(cancel.get("data").asString())
                .as("cancel(bytes32) of the link's subscription")
                .isEqualTo("0xc4d252f5" + subscriptionId.substring(2));
        assertThat(cancel.get("value").asString()).isEqualTo("0x0");
        assertThat(read(get(merchant, "/subscriber/" + subscriberId)
                                .expectStatus()
                                .isOk())
                        .get("status")
                        .asString())
                .isEqualTo("cancelled");
        double countedBefore = collectedAfterStop();

        // The platform's keeper leaves it alone, but anyone may call collect: the period is paid all the same.
        CHAIN.increaseTime(TRIAL + 60);
        TransactionReceipt collected = contractCall(OTHER_ADDRESS, "collect", subscriptionId);
        assertThat(reportLogs(collected)).containsExactly("applied");
        JsonNode flagged = read(get(merchant, linkUri).expectStatus().isOk());
        assertThat(flagged.get("is_active").asBoolean()).isFalse();
        assertThat(flagged.get("paid_periods").asInt()).isEqualTo(1);
        assertThat(flagged.get("collected_after_stop").asBoolean()).isTrue();
        JsonNode payment = flagged.get("subscription_transactions").get(0);
        assertThat(payment.get("tx_hash").asString()).isEqualTo(collected.getTransactionHash());
        assertThat(payment.get("collected_after_stop").asBoolean()).isTrue();
        assertThat(flagged.get("cancel_transaction").get("data").asString())
                .isEqualTo(cancel.get("data").asString());
        assertThat(collectedAfterStop()).isEqualTo(countedBefore + 1);
        List<ConsumerRecord<String, String>> records = merchantEvents(merchant, 4);
        assertThat(records)
                .extracting(r -> TestKafka.header(r, "event-type"))
                .containsExactly(
                        "subscription.created",
                        "subscription.activated",
                        "subscription.cancelled",
                        "subscription.payment.success");
        JsonNode success = json.readTree(records.get(3).value()).get("data");
        assertThat(success.get("tx_hash").asString()).isEqualTo(collected.getTransactionHash());
        assertThat(success.get("collected_after_stop").asBoolean()).isTrue();
        assertThat(json.readTree(records.get(0).value())
                        .get("data")
                        .get("collected_after_stop")
                        .asBoolean())
                .as("false on every other event")
                .isFalse();

        // The customer's wallet sends the answered transaction: the contract ends it and the link follows.
        TransactionReceipt ended = CHAIN.sendTransaction(
                WALLET, cancel.get("to").asString(), cancel.get("data").asString(), BigInteger.ZERO);
        assertThat(ended.isStatusOK()).isTrue();
        assertThat(reportLogs(ended)).containsExactly("applied");
        JsonNode after = read(get(merchant, linkUri).expectStatus().isOk());
        assertThat(after.get("chain_status").asString()).isEqualTo("ended");
        assertThat(after.has("cancel_transaction")).isFalse();
        assertThat(read(send(merchant, HttpMethod.PUT, linkUri, Map.of("is_active", true))
                                .expectStatus()
                                .isEqualTo(409))
                        .get("code")
                        .asString())
                .isEqualTo("link_ended");
    }

    @Test
    void aPeriodStartingAtOrAfterTheLinksEndIsCollectedAfterStop() {
        MerchantIdentity merchant = newMerchant();
        JsonNode plan = createPlan(merchant, amountPlan("Ending"));
        String subscriberId = createSubscriber(merchant, plan.get("id").asString(), "Bo", "bo@example.com")
                .get("id")
                .asString();
        JsonNode link = enrol(plan.get("id").asString(), subscriberId);
        String linkUri = "/subscriptions/link/" + link.get("id").asString();
        Instant end = Instant.parse(link.get("trial_ends_at").asString()).minusSeconds(3_600);
        read(send(merchant, HttpMethod.PUT, linkUri, Map.of("expires_at", end.toString()))
                .expectStatus()
                .isOk());

        CHAIN.increaseTime(TRIAL + 60);
        TransactionReceipt collected = contractCall(
                OTHER_ADDRESS, "collect", link.get("chain_subscription_id").asString());
        assertThat(reportLogs(collected)).containsExactly("applied");
        JsonNode flagged = read(get(merchant, linkUri).expectStatus().isOk());
        assertThat(flagged.get("collected_after_stop").asBoolean()).isTrue();
        assertThat(flagged.get("subscription_transactions")
                        .get(0)
                        .get("collected_after_stop")
                        .asBoolean())
                .isTrue();
    }

    private double collectedAfterStop() {
        return prometheus()
                .lines()
                .filter(line -> line.startsWith("subscriptions_collected_after_stop_total{chain_id=\"31337\""))
                .mapToDouble(line -> Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1)))
                .sum();
    }
}
