package dev.cryptopay.paymentlinks.refund;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cryptopay.paymentlinks.transaction.LinkTransaction;
import dev.cryptopay.paymentlinks.transaction.TransactionRepository.Claimed;
import dev.cryptopay.paymentlinks.transaction.TransactionStatus;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** How a completed refund of a link's money is spread over its transfers. */
class RefundAllocationTest {

    private static Claimed transfer(String amount, String refunded, String claimed) {
        LinkTransaction transaction = new LinkTransaction(
                UUID.randomUUID(),
                UUID.randomUUID(),
                "Local dev chain",
                "0x01",
                0,
                null,
                "ETH",
                "0xpayer",
                new BigDecimal(amount),
                null,
                new BigDecimal(refunded),
                TransactionStatus.CONFIRMED,
                12,
                12,
                false,
                false,
                false,
                Instant.EPOCH,
                Instant.EPOCH);
        return new Claimed(transaction, new BigDecimal(claimed));
    }

    @Test
    void fillsTransfersInOrderLeavingWhatRefundsOfThemClaim() {
        Claimed first = transfer("10", "2", "3");
        Claimed second = transfer("10", "0", "0");

        Map<UUID, BigDecimal> parts = RefundAllocation.of(List.of(first, second), new BigDecimal("8"));

        assertThat(parts)
                .containsOnlyKeys(first.transaction().id(), second.transaction().id());
        assertThat(parts.get(first.transaction().id())).isEqualByComparingTo("5");
        assertThat(parts.get(second.transaction().id())).isEqualByComparingTo("3");
    }

    @Test
    void takesClaimedMoneyOnlyWhenNothingElseIsLeft() {
        Claimed only = transfer("10", "0", "6");

        Map<UUID, BigDecimal> parts = RefundAllocation.of(List.of(only), new BigDecimal("7"));

        assertThat(parts.get(only.transaction().id())).isEqualByComparingTo("7");
        assertThat(RefundAllocation.of(List.of(only), new BigDecimal("12"))
                        .get(only.transaction().id()))
                .as("never more than the transfer")
                .isEqualByComparingTo("10");
        assertThat(RefundAllocation.of(List.of(), BigDecimal.ONE)).isEmpty();
    }
}
