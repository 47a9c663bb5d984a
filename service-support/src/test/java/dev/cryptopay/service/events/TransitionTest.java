package dev.cryptopay.service.events;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The one shape every aggregate's move answers. */
class TransitionTest {

    @Test
    void unchangedStoresNothingAndEmitsNothing() {
        Transition<String> same = Transition.unchanged("link");
        assertThat(same.changed()).isFalse();
        assertThat(same.emits()).isFalse();
        assertThat(same.state()).isEqualTo("link");
    }

    @Test
    void aMoveMayChangeTheStateWithOrWithoutEvents() {
        Transition<String> renamed = Transition.to("renamed");
        assertThat(renamed.changed()).isTrue();
        assertThat(renamed.emits()).isFalse();
        Transition<String> cancelled = Transition.to("cancelled", EventType.SUBSCRIPTION_CANCELLED);
        assertThat(cancelled.emits(EventType.SUBSCRIPTION_CANCELLED)).isTrue();
        assertThat(cancelled.emits(EventType.SUBSCRIPTION_ACTIVATED)).isFalse();
    }

    @Test
    void chainedMovesKeepTheLastStateAndEveryEventInOrder() {
        Transition<String> both = Transition.to("missed", EventType.SUBSCRIPTION_PAYMENT_FAILED)
                .then(state -> Transition.to(state + "+cancelled", EventType.SUBSCRIPTION_CANCELLED));
        assertThat(both.state()).isEqualTo("missed+cancelled");
        assertThat(both.events())
                .containsExactly(EventType.SUBSCRIPTION_PAYMENT_FAILED, EventType.SUBSCRIPTION_CANCELLED);
        assertThat(Transition.unchanged("a").then(Transition::unchanged).changed())
                .isFalse();
        assertThat(Transition.to("a").then(Transition::unchanged).changed()).isTrue();
    }
}
