package dev.cryptopay.subscriptions.subscription;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cryptopay.auth.Mode;
import dev.cryptopay.service.error.ApiException;
import dev.cryptopay.service.events.EventType;
import dev.cryptopay.service.events.Transition;
import dev.cryptopay.service.request.Patch;
import java.math.BigInteger;
import java.time.Instant;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** A link's billing arithmetic, without Spring or a database. */
class SubscriptionLinkTest {

    private static final Instant START = Instant.parse("2026-01-01T00:00:00Z");
    private static final BigInteger PERIOD = BigInteger.valueOf(10_000_000);
    private static final long MONTH = 2_592_000;

    @Test
    void aMissAddsWhatTheContractCountedAsDebtAndTakesItsNextDueTime() {
        Instant next = START.plusSeconds(3 * MONTH);
        Transition<SubscriptionLink> miss = link().missed(PERIOD.multiply(BigInteger.valueOf(3)), 3, next, START);
        assertThat(miss.events())
                .as("one event for all the periods")
                .containsExactly(EventType.SUBSCRIPTION_PAYMENT_FAILED);
        SubscriptionLink missed = miss.state();
        assertThat(missed.owed()).isEqualTo(PERIOD.multiply(BigInteger.valueOf(3)));
        assertThat(missed.missedPeriods()).isEqualTo(3);
        assertThat(missed.periodDueAt()).isEqualTo(next);
        assertThat(missed.paidPeriods()).isZero();
        assertThat(missed.active())
                .as("the contract's own Cancelled log stops it")
                .isTrue();
    }

    @Test
    void debtStopsAtTheLargestUint256() {
        BigInteger largest = SubscriptionLink.MAX_OWED;
        SubscriptionLink owing = missedTwice(largest);
        assertThat(owing.owed()).isEqualTo(largest);
        assertThat(owing.missedPeriods()).isEqualTo(2);
        assertThat(owing.periodDueAt()).isEqualTo(START.plusSeconds(2 * MONTH));
    }

    @Test
    void aCollectionTakesTheChainsCountResetsTheMissesAndKeepsTheDebt() {
        SubscriptionLink owing = missedTwice(PERIOD);
        Instant next = START.plusSeconds(3 * MONTH);
        Transition<SubscriptionLink> payment = owing.charged(1, next, START);
        assertThat(payment.events()).containsExactly(EventType.SUBSCRIPTION_PAYMENT_SUCCESS);
        SubscriptionLink paid = payment.state();
        assertThat(paid.owed())
                .as("one period collected pays that period only")
                .isEqualTo(PERIOD.multiply(BigInteger.TWO));
        assertThat(paid.missedPeriods()).isZero();
        assertThat(paid.paidPeriods()).isEqualTo(1);
        assertThat(paid.periodDueAt()).isEqualTo(next);
        assertThat(paid.charged(0, next, START).state().paidPeriods())
                .as("never counts backwards")
                .isEqualTo(1);
    }

    @Test
    void aPendingLinkIsConfirmedWithTheChainsTimesAndAnnouncedOnce() {
        Subscriber subscriber = new Subscriber(
                UUID.randomUUID(),
                UUID.randomUUID(),
                Mode.TEST,
                UUID.randomUUID(),
                null,
                null,
                null,
                null,
                null,
                null,
                SubscriberStatus.INVITATION_SENT,
                START,
                START);
        SubscriptionLink pending =
                SubscriptionLink.pending(subscriber, "0xabc", "0x" + "ab".repeat(32), null, "[]", null, START);
        assertThat(pending.chainStatus()).isEqualTo(ChainStatus.PENDING);
        assertThat(pending.active()).isFalse();
        assertThatThrownBy(() -> pending.update(change(Patch.absent(), Patch.of(true)), START))
                .as("only the chain activates it")
                .isInstanceOf(ApiException.class)
                .hasMessageContaining("chain_status pending");
        Instant block = START.plusSeconds(30);
        Transition<SubscriptionLink> confirmed =
                pending.subscribed("0x" + "01".repeat(32), block, null, block, null, true, START.plusSeconds(60));
        assertThat(confirmed.events()).containsExactly(EventType.SUBSCRIPTION_CREATED);
        assertThat(confirmed.state().active()).isTrue();
        assertThat(confirmed.state().subscribedAt()).isEqualTo(block);
        assertThat(confirmed.state().periodDueAt()).isEqualTo(block);
        assertThat(pending.subscribed("0x" + "01".repeat(32), block, null, block, null, false, START)
                        .emits())
                .as("a subscriber cancelled meanwhile: recorded, not announced, not billed")
                .isFalse();
        assertThat(pending.failed(START).chainStatus()).isEqualTo(ChainStatus.FAILED);
    }

    @Test
    void aRestartBillsFromNowAndForgetsTheMisses() {
        SubscriptionLink stopped = missedTwice(PERIOD).stop(START).state();
        assertThat(stopped.active()).isFalse();
        Instant later = START.plusSeconds(10 * MONTH);
        Transition<SubscriptionLink> restart = stopped.update(change(Patch.absent(), Patch.of(true)), later);
        SubscriptionLink restarted = restart.state();
        assertThat(restart.emits()).as("its subscriber's move announces it").isFalse();
        assertThat(restarted.active()).isTrue();
        assertThat(restarted.periodDueAt()).isEqualTo(later);
        assertThat(restarted.missedPeriods()).isZero();
        assertThat(restarted.owed()).as("debt stays").isEqualTo(PERIOD.multiply(BigInteger.TWO));
    }

    @Test
    void aRestartAfterTheEndIsRefused() {
        SubscriptionLink ended = link().update(
                        new LinkUpdate(
                                Patch.absent(),
                                Patch.absent(),
                                Patch.absent(),
                                Patch.of(START.plusSeconds(60)),
                                Patch.of(false),
                                Patch.absent(),
                                Patch.absent()),
                        START)
                .state();
        assertThatThrownBy(() -> ended.update(change(Patch.absent(), Patch.of(true)), START.plusSeconds(61)))
                .isInstanceOf(ApiException.class)
                .hasMessageContaining("expired");
    }

    @Test
    void changesKeepWhatIsNotNamed() {
        SubscriptionLink link = link();
        Transition<SubscriptionLink> locking =
                link.update(change(Patch.of(true), Patch.absent()), START.plusSeconds(5));
        SubscriptionLink locked = locking.state();
        assertThat(locking.changed()).isTrue();
        assertThat(locked.locked()).isTrue();
        assertThat(locked.active()).isTrue();
        assertThat(locked.owed()).isZero();
        assertThat(locked.updatedAt()).isEqualTo(START.plusSeconds(5));
        assertThat(link.stop(START).state().active()).isFalse();
        assertThat(link.update(change(Patch.absent(), Patch.absent()), START).changed())
                .isFalse();
    }

    @Test
    void aNewTrialEndBeforeAnyBillingMovesTheFirstPeriodAndNullRemovesTheEnd() {
        SubscriptionLink link = link();
        Instant trialEnd = START.plusSeconds(99);
        SubscriptionLink moved = link.update(
                        new LinkUpdate(
                                Patch.of(trialEnd),
                                Patch.absent(),
                                Patch.absent(),
                                Patch.of(START.plusSeconds(MONTH)),
                                Patch.absent(),
                                Patch.absent(),
                                Patch.absent()),
                        START)
                .state();
        assertThat(moved.periodDueAt()).isEqualTo(trialEnd);
        assertThat(moved.expiresAt()).isEqualTo(START.plusSeconds(MONTH));
        SubscriptionLink endless = moved.update(
                        new LinkUpdate(
                                Patch.absent(),
                                Patch.absent(),
                                Patch.absent(),
                                Patch.clear(),
                                Patch.absent(),
                                Patch.absent(),
                                Patch.absent()),
                        START)
                .state();
        assertThat(endless.expiresAt()).as("null: no end").isNull();
        assertThat(endless.trialEndsAt()).as("left out: kept").isEqualTo(trialEnd);
    }

    private static LinkUpdate change(Patch<Boolean> locked, Patch<Boolean> active) {
        return new LinkUpdate(
                Patch.absent(), Patch.absent(), Patch.absent(), Patch.absent(), active, locked, Patch.absent());
    }

    private static SubscriptionLink missedTwice(BigInteger amount) {
        return link().missed(amount, 1, START.plusSeconds(MONTH), START)
                .state()
                .missed(amount, 2, START.plusSeconds(2 * MONTH), START)
                .state();
    }

    private static SubscriptionLink link() {
        return new SubscriptionLink(
                UUID.randomUUID(),
                UUID.randomUUID(),
                Mode.TEST,
                UUID.randomUUID(),
                UUID.randomUUID(),
                "0x90F79bf6EB2c4f870365E785982E1f101E93b906",
                "0x" + "ab".repeat(32),
                null,
                ChainStatus.SUBSCRIBED,
                "0x" + "01".repeat(32),
                "[]",
                BigInteger.ZERO,
                0,
                false,
                START,
                null,
                null,
                true,
                START,
                0,
                START,
                START);
    }
}
