package dev.cryptopay.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** When a crashed service is restarted: the back-off, what starts it afresh, and when the launcher gives up. */
class RestartPolicyTest {

    private static final Instant T0 = Instant.parse("2026-11-29T08:00:00Z");
    private static final Duration BRIEF = Duration.ofSeconds(5);

    private static String decided(RestartPolicy.Decision decision) {
        return decision.givesUp()
                ? "give up at crash " + decision.crash()
                : ServiceSupervisor.shown(decision.backOff()) + " (crash " + decision.crash() + ")";
    }

    @Test
    void theBackOffDoublesFromOneSecondAndTheFifthCrashWithinFiveMinutesGivesUp() {
        RestartPolicy.Crashes crashes = RestartPolicy.STANDARD.crashes();
        List<String> decisions = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            decisions.add(decided(crashes.crashed(BRIEF, T0.plusSeconds(20L * i))));
        }

        assertThat(decisions)
                .containsExactly(
                        "1 s (crash 1)", "2 s (crash 2)", "4 s (crash 3)", "8 s (crash 4)", "give up at crash 5");
    }

    @Test
    void aRunThatStayedUpAMinuteStartsTheRowAgain() {
        RestartPolicy.Crashes crashes = RestartPolicy.STANDARD.crashes();

        assertThat(decided(crashes.crashed(BRIEF, T0))).isEqualTo("1 s (crash 1)");
        assertThat(decided(crashes.crashed(BRIEF, T0.plusSeconds(10)))).isEqualTo("2 s (crash 2)");
        assertThat(decided(crashes.crashed(Duration.ofSeconds(59), T0.plusSeconds(71))))
                .isEqualTo("4 s (crash 3)");
        assertThat(decided(crashes.crashed(Duration.ofSeconds(60), T0.plusSeconds(135))))
                .as("up for 60 s: the back-off starts again, the crash still counts towards giving up")
                .isEqualTo("1 s (crash 4)");
        assertThat(decided(crashes.crashed(BRIEF, T0.plusSeconds(141)))).isEqualTo("give up at crash 5");
    }

    @Test
    void crashesOlderThanFiveMinutesNoLongerCountTowardsGivingUp() {
        RestartPolicy.Crashes crashes = RestartPolicy.STANDARD.crashes();
        Duration minute = Duration.ofSeconds(61);
        for (int i = 0; i < 4; i++) {
            assertThat(decided(crashes.crashed(minute, T0.plus(minute.multipliedBy(i)))))
                    .isEqualTo("1 s (crash " + (i + 1) + ")");
        }

        assertThat(decided(crashes.crashed(minute, T0.plusSeconds(300))))
                .as("the first crash is exactly 5 min old: out of the window")
                .isEqualTo("1 s (crash 4)");
        assertThat(decided(crashes.crashed(BRIEF, T0.plusSeconds(301)))).isEqualTo("give up at crash 5");
        assertThat(decided(crashes.crashed(BRIEF, T0.plusSeconds(302))))
                .as("a crash after giving up (a start on purpose gets a new history)")
                .isEqualTo("give up at crash 6");
    }

    @Test
    void theBackOffStopsDoublingAtThirtySeconds() {
        RestartPolicy patient = new RestartPolicy(
                Duration.ofSeconds(1),
                Duration.ofSeconds(30),
                Duration.ofSeconds(60),
                100,
                Duration.ofMinutes(5),
                Duration.ofSeconds(1));
        RestartPolicy.Crashes crashes = patient.crashes();
        List<String> backOffs = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            backOffs.add(ServiceSupervisor.shown(
                    crashes.crashed(BRIEF, T0.plusSeconds(i)).backOff()));
        }

        assertThat(backOffs.subList(0, 7)).containsExactly("1 s", "2 s", "4 s", "8 s", "16 s", "30 s", "30 s");
        assertThat(backOffs.subList(7, 40)).containsOnly("30 s");
    }

    @Test
    void durationsAreShownAsThePolicyWritesThem() {
        assertThat(ServiceSupervisor.shown(Duration.ofMillis(250))).isEqualTo("250 ms");
        assertThat(ServiceSupervisor.shown(Duration.ofMillis(1500))).isEqualTo("1500 ms");
        assertThat(ServiceSupervisor.shown(Duration.ofSeconds(2))).isEqualTo("2 s");
        assertThat(ServiceSupervisor.shown(Duration.ofSeconds(90))).isEqualTo("90 s");
        assertThat(ServiceSupervisor.shown(Duration.ofMinutes(5))).isEqualTo("5 min");
    }
}
