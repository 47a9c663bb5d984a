package dev.cryptopay.paymentlinks.paymentlink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cryptopay.auth.Mode;
import dev.cryptopay.service.events.EventType;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The link's own rules, without Spring or a database: each move's new state and the events it causes. */
class PaymentLinkTest {

    private static final Instant NOW = Instant.parse("2026-11-22T10:00:00Z");

    private static PaymentLink link(int maxUses) {
        PaymentLink draft = new PaymentLink(
                UUID.randomUUID(),
                UUID.randomUUID(),
                Mode.TEST,
                "Coffee",
                null,
                new BigDecimal("10.5"),
                "USDC",
                "ethereum",
                PaymentStatus.PENDING,
                NOW.plus(Duration.ofHours(1)),
                maxUses,
                0,
                true,
                "CUST-1",
                null,
                null,
                null,
                null,
                null,
                "ORD-1",
                true,
                null,
                null,
                null,
                null,
                null,
                NOW,
                NOW,
                null);
        Transition created = PaymentLink.create(draft);
        assertThat(created.events()).containsExactly(EventType.PAYMENT_CREATED);
        return created.link();
    }

    @Test
    void aPendingTransactionMovesToProcessingAndAConfirmationCompletesTheLastUse() {
        Transition pending = link(1).transactionPending(NOW);
        assertThat(pending.link().status()).isEqualTo(PaymentStatus.PROCESSING);
        assertThat(pending.events()).containsExactly(EventType.PAYMENT_PENDING);
        Transition confirmed = pending.link().transactionConfirmed(true, true, false, NOW);
        assertThat(confirmed.link().status()).isEqualTo(PaymentStatus.COMPLETED);
        assertThat(confirmed.link().currentUses()).isEqualTo(1);
        assertThat(confirmed.events()).containsExactly(EventType.PAYMENT_COMPLETED);
    }

    @Test
    void aMultiUseLinkWaitsForPaymentAgainAfterEachUse() {
        Transition first = link(2).transactionConfirmed(false, true, false, NOW);
        assertThat(first.link().status()).isEqualTo(PaymentStatus.PENDING);
        assertThat(first.link().currentUses()).isEqualTo(1);
        assertThat(first.link().paymentType()).isEqualTo("recurring");
    }

    @Test
    void anUnderpaymentCountsNoUseAndEmitsNothing() {
        Transition under = link(1).transactionConfirmed(false, false, false, NOW);
        assertThat(under.link().currentUses()).isZero();
        assertThat(under.link().status()).isEqualTo(PaymentStatus.PENDING);
        assertThat(under.changed()).isFalse();
    }

    @Test
    void anUnpaidLinkReadsAsExpiredAndExpiresOnce() {
        PaymentLink link = link(1);
        Instant later = NOW.plus(Duration.ofHours(2));
        assertThat(link.effectiveStatus(later)).isEqualTo(PaymentStatus.EXPIRED);
        Transition expired = link.expire(later);
        assertThat(expired.events()).containsExactly(EventType.PAYMENT_FAILED);
        assertThat(expired.link().expire(later).changed()).isFalse();
        assertThat(link.expire(NOW).changed()).isFalse();
    }

    @Test
    void cancellingIsIdempotentAndACancelledLinkTakesNoPayment() {
        Transition cancelled = link(1).cancel(NOW);
        assertThat(cancelled.link().status()).isEqualTo(PaymentStatus.CANCELLED);
        assertThat(cancelled.link().active()).isFalse();
        assertThat(cancelled.link().cancel(NOW).link()).isSameAs(cancelled.link());
        assertThatThrownBy(() -> cancelled.link().transactionPending(NOW))
                .isInstanceOf(IllegalTransitionException.class)
                .hasMessage("Payment link is cancelled and does not accept payments");
    }

    @Test
    void anExpiredLinkRefusesANewPaymentButTakesTheConfirmationOfOneSeenBefore() {
        Instant later = NOW.plus(Duration.ofHours(2));
        PaymentLink link = link(1);
        assertThatThrownBy(() -> link.transactionPending(later)).isInstanceOf(IllegalTransitionException.class);
        PaymentLink processing = link.transactionPending(NOW).link();
        assertThat(processing
                        .transactionConfirmed(true, true, false, later)
                        .link()
                        .status())
                .isEqualTo(PaymentStatus.COMPLETED);
    }
}
