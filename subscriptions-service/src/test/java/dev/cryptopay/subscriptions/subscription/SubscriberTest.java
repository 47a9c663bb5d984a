package dev.cryptopay.subscriptions.subscription;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cryptopay.auth.Mode;
import dev.cryptopay.service.events.EventType;
import dev.cryptopay.service.events.Transition;
import dev.cryptopay.service.request.Patch;
import java.time.Instant;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** Which update emits which event, without Spring or a database. */
class SubscriberTest {

    private static final Instant NOW = Instant.parse("2026-03-01T00:00:00Z");

    @Test
    void eachStatusMoveEmitsItsEvent() {
        assertThat(subscriber(SubscriberStatus.INVITATION_SENT)
                        .update(status(SubscriberStatus.ACTIVE), NOW)
                        .events())
                .containsExactly(EventType.SUBSCRIPTION_ACTIVATED);
        assertThat(subscriber(SubscriberStatus.ACTIVE)
                        .update(status(SubscriberStatus.SUSPENDED), NOW)
                        .events())
                .containsExactly(EventType.SUBSCRIPTION_PAUSED);
        assertThat(subscriber(SubscriberStatus.ACTIVE)
                        .update(status(SubscriberStatus.INACTIVE), NOW)
                        .events())
                .containsExactly(EventType.SUBSCRIPTION_PAUSED);
        assertThat(subscriber(SubscriberStatus.SUSPENDED)
                        .moveTo(SubscriberStatus.CANCELLED, NOW)
                        .events())
                .containsExactly(EventType.SUBSCRIPTION_CANCELLED);
        Transition<Subscriber> back =
                subscriber(SubscriberStatus.ACTIVE).update(status(SubscriberStatus.INVITATION_SENT), NOW);
        assertThat(back.changed()).isTrue();
        assertThat(back.events()).isEmpty();
    }

    @Test
    void noStatusChangeNoEventAndNothingChangedNoUpdate() {
        Subscriber active = subscriber(SubscriberStatus.ACTIVE);
        Transition<Subscriber> renamed = active.update(
                new SubscriberRequest.Update(
                        Patch.of("Ada"), Patch.of("ada@x.test"), Patch.of(SubscriberStatus.ACTIVE)),
                NOW);
        assertThat(renamed.events()).isEmpty();
        assertThat(renamed.state().customerName()).isEqualTo("Ada");
        assertThat(renamed.state().updatedAt()).isEqualTo(NOW);
        Transition<Subscriber> nothing =
                active.update(new SubscriberRequest.Update(Patch.absent(), Patch.absent(), Patch.absent()), NOW);
        assertThat(nothing.changed()).isFalse();
        assertThat(nothing.state()).isSameAs(active);
    }

    @Test
    void nullClearsTheNameAndEmailWhileAbsentKeepsThem() {
        Subscriber named = subscriber(SubscriberStatus.ACTIVE)
                .update(new SubscriberRequest.Update(Patch.absent(), Patch.of("ada@x.test"), Patch.absent()), NOW)
                .state();
        assertThat(named.customerName()).as("left out: kept").isEqualTo("Customer");
        Subscriber cleared = named.update(
                        new SubscriberRequest.Update(Patch.clear(), Patch.absent(), Patch.absent()), NOW)
                .state();
        assertThat(cleared.customerName()).as("null: removed").isNull();
        assertThat(cleared.customerEmail()).isEqualTo("ada@x.test");
    }

    @Test
    void enrolmentActivatesAndFillsOnlyTheBlanks() {
        Transition<Subscriber> enrolled =
                subscriber(SubscriberStatus.INVITATION_SENT).enrolled("Someone else", "c@x.test", NOW);
        assertThat(enrolled.events()).containsExactly(EventType.SUBSCRIPTION_ACTIVATED);
        assertThat(enrolled.state().customerName())
                .as("the merchant's name stays")
                .isEqualTo("Customer");
        assertThat(enrolled.state().customerEmail()).as("a blank is filled").isEqualTo("c@x.test");
    }

    private static SubscriberRequest.Update status(SubscriberStatus status) {
        return new SubscriberRequest.Update(Patch.absent(), Patch.absent(), Patch.of(status));
    }

    private static Subscriber subscriber(SubscriberStatus status) {
        Instant created = NOW.minusSeconds(3600);
        return new Subscriber(
                UUID.randomUUID(),
                UUID.randomUUID(),
                Mode.TEST,
                UUID.randomUUID(),
                null,
                "Customer",
                null,
                null,
                null,
                null,
                status,
                created,
                created);
    }
}
