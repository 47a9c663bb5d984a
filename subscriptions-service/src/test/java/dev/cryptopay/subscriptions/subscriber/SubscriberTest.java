package dev.cryptopay.subscriptions.subscriber;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cryptopay.auth.Mode;
import dev.cryptopay.service.events.EventType;
import java.time.Instant;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** Which update emits which event, without Spring or a database. */
class SubscriberTest {

    private static final Instant NOW = Instant.parse("2026-03-01T00:00:00Z");

    @Test
    void eachStatusMoveEmitsItsEvent() {
        assertThat(subscriber(SubscriberStatus.INVITATION_SENT)
                        .update(null, null, SubscriberStatus.ACTIVE, NOW)
                        .event())
                .hasValue(EventType.SUBSCRIPTION_ACTIVATED);
        assertThat(subscriber(SubscriberStatus.ACTIVE)
                        .update(null, null, SubscriberStatus.SUSPENDED, NOW)
                        .event())
                .hasValue(EventType.SUBSCRIPTION_PAUSED);
        assertThat(subscriber(SubscriberStatus.ACTIVE)
                        .update(null, null, SubscriberStatus.INACTIVE, NOW)
                        .event())
                .hasValue(EventType.SUBSCRIPTION_PAUSED);
        assertThat(subscriber(SubscriberStatus.SUSPENDED)
                        .update(null, null, SubscriberStatus.CANCELLED, NOW)
                        .event())
                .hasValue(EventType.SUBSCRIPTION_CANCELLED);
        assertThat(subscriber(SubscriberStatus.ACTIVE)
                        .update(null, null, SubscriberStatus.INVITATION_SENT, NOW)
                        .event())
                .isEmpty();
    }

    @Test
    void noStatusChangeNoEventAndNothingChangedNoUpdate() {
        Subscriber active = subscriber(SubscriberStatus.ACTIVE);
        Subscriber.Change renamed = active.update("Ada", "ada@x.test", SubscriberStatus.ACTIVE, NOW);
        assertThat(renamed.event()).isEmpty();
        assertThat(renamed.subscriber().customerName()).isEqualTo("Ada");
        assertThat(renamed.subscriber().updatedAt()).isEqualTo(NOW);
        assertThat(active.update(null, null, null, NOW).subscriber()).isSameAs(active);
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
