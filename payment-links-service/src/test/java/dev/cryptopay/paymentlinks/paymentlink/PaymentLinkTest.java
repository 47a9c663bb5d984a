package dev.cryptopay.paymentlinks.paymentlink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cryptopay.auth.Mode;
import dev.cryptopay.service.events.EventType;
import dev.cryptopay.service.events.Transition;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
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
        Transition<PaymentLink> created = PaymentLink.create(draft);
        assertThat(created.events()).containsExactly(EventType.PAYMENT_CREATED);
        assertThat(created.changed()).isTrue();
        return created.state();
    }

    @Test
    void aPendingTransactionMovesToProcessingAndAConfirmationCompletesTheLastUse() {
        Transition<PaymentLink> pending = link(1).transactionPending(NOW);
        assertThat(pending.state().status()).isEqualTo(PaymentStatus.PROCESSING);
        assertThat(pending.events()).containsExactly(EventType.PAYMENT_PENDING);
        Transition<PaymentLink> confirmed = pending.state().transactionConfirmed(true, true, false, NOW);
        assertThat(confirmed.state().status()).isEqualTo(PaymentStatus.COMPLETED);
        assertThat(confirmed.state().currentUses()).isEqualTo(1);
        assertThat(confirmed.events()).containsExactly(EventType.PAYMENT_COMPLETED);
    }

    @Test
    void aMultiUseLinkWaitsForPaymentAgainAfterEachUse() {
        Transition<PaymentLink> first = link(2).transactionConfirmed(false, true, false, NOW);
        assertThat(first.state().status()).isEqualTo(PaymentStatus.PENDING);
        assertThat(first.state().currentUses()).isEqualTo(1);
        assertThat(first.state().paymentType()).isEqualTo("recurring");
    }

    @Test
    void anUnderpaymentCountsNoUseAndEmitsNothing() {
        Transition<PaymentLink> under = link(1).transactionConfirmed(false, false, false, NOW);
        assertThat(under.state().currentUses()).isZero();
        assertThat(under.state().status()).isEqualTo(PaymentStatus.PENDING);
        assertThat(under.emits()).isFalse();
        assertThat(under.changed())
                .as("the row is still written: the link waits for payment again")
                .isTrue();
    }

    @Test
    void anUnpaidLinkReadsAsExpiredAndExpiresOnce() {
        PaymentLink link = link(1);
        Instant later = NOW.plus(Duration.ofHours(2));
        assertThat(link.effectiveStatus(later)).isEqualTo(PaymentStatus.EXPIRED);
        Transition<PaymentLink> expired = link.expire(later);
        assertThat(expired.events()).containsExactly(EventType.PAYMENT_FAILED);
        assertThat(expired.state().expire(later)).isEqualTo(Transition.unchanged(expired.state()));
        assertThat(link.expire(NOW)).isEqualTo(Transition.unchanged(link));
    }

    @Test
    void cancellingIsIdempotentAndACancelledLinkTakesNoPayment() {
        Transition<PaymentLink> cancelled = link(1).cancel(NOW);
        assertThat(cancelled.state().status()).isEqualTo(PaymentStatus.CANCELLED);
        assertThat(cancelled.state().active()).isFalse();
        assertThat(cancelled.changed()).isTrue();
        assertThat(cancelled.emits()).isFalse();
        Transition<PaymentLink> again = cancelled.state().cancel(NOW);
        assertThat(again.state()).isSameAs(cancelled.state());
        assertThat(again.changed()).isFalse();
        assertThatThrownBy(() -> cancelled.state().transactionPending(NOW))
                .isInstanceOf(IllegalTransitionException.class)
                .hasMessage("Payment link is cancelled and does not accept payments");
    }

    @Test
    void anExpiredLinkRefusesANewPaymentButTakesTheConfirmationOfOneSeenBefore() {
        Instant later = NOW.plus(Duration.ofHours(2));
        PaymentLink link = link(1);
        assertThatThrownBy(() -> link.transactionPending(later)).isInstanceOf(IllegalTransitionException.class);
        PaymentLink processing = link.transactionPending(NOW).state();
        assertThat(processing
                        .transactionConfirmed(true, true, false, later)
                        .state()
                        .status())
                .isEqualTo(PaymentStatus.COMPLETED);
    }

    @Test
    void aLatePaymentLeavesTheLinkAsItIsAndOnlyItsConfirmationIsADeposit() {
        PaymentLink completed =
                link(1).transactionConfirmed(false, true, false, NOW).state();
        assertThat(completed.latePaymentPending()).isEqualTo(Transition.unchanged(completed));
        assertThat(completed.latePaymentFailed()).isEqualTo(Transition.unchanged(completed));
        assertThat(completed.latePaymentConfirmed())
                .isEqualTo(new Transition<>(completed, List.of(EventType.WALLET_DEPOSIT), false));
        assertThat(completed.lateReason()).isEqualTo(DepositReason.BEYOND_MAX_USES);
        assertThat(link(1).cancel(NOW).state().lateReason()).isEqualTo(DepositReason.LATE_PAYMENT);
        assertThat(link(1).expire(NOW.plus(Duration.ofHours(2))).state().lateReason())
                .isEqualTo(DepositReason.LATE_PAYMENT);
    }

    @Test
    void aConfirmationCountsOnlyWhileTheLinkCanTakeIt() {
        PaymentLink processing = link(1).transactionPending(NOW).state();
        Instant later = NOW.plus(Duration.ofHours(2));
        assertThat(processing.countsConfirmation(true, later))
                .as("seen before expiry")
                .isTrue();
        assertThat(processing.countsConfirmation(false, NOW)).isTrue();
        PaymentLink completed =
                processing.transactionConfirmed(true, true, false, NOW).state();
        assertThat(completed.countsConfirmation(true, NOW)).isFalse();
        assertThat(link(1).cancel(NOW).state().countsConfirmation(true, NOW)).isFalse();
        assertThat(link(1).countsConfirmation(false, later)).isFalse();
    }

    @Test
    void aResolvedLatePaymentCountsAUseAndCompletesOnlyWhenTheUsesAreReached() {
        Instant later = NOW.plus(Duration.ofHours(2));
        PaymentLink expired = link(1).expire(later).state();
        Transition<PaymentLink> resolved = expired.latePaymentResolved(later);
        assertThat(resolved.state().status()).isEqualTo(PaymentStatus.COMPLETED);
        assertThat(resolved.state().currentUses()).isEqualTo(1);
        assertThat(resolved.events()).containsExactly(EventType.PAYMENT_COMPLETED);

        PaymentLink cancelled = link(3).cancel(NOW).state();
        Transition<PaymentLink> one = cancelled.latePaymentResolved(NOW);
        assertThat(one.state().status()).isEqualTo(PaymentStatus.CANCELLED);
        assertThat(one.state().currentUses()).isEqualTo(1);

        PaymentLink completed = resolved.state();
        assertThat(completed.latePaymentResolved(later).state().currentUses())
                .as("the merchant may honour a payment beyond the uses")
                .isEqualTo(2);
    }
}
