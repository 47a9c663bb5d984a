package dev.cryptopay.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Whether a run has the dev chain and chain-watcher, and the one line that says why not. */
class DevChainDecisionTest {

    private final ByteArrayOutputStream printed = new ByteArrayOutputStream();
    private final StackConsole console = new StackConsole(new PrintStream(printed, true, StandardCharsets.UTF_8));

    @Test
    void withTheToolsThereTheChainRunsWithoutAWord() {
        StackOptions options = new StackOptions();
        options.devChainTools = Optional::empty;

        assertThat(StackChain.runs(options, console)).isTrue();
        assertThat(printed.toString(StandardCharsets.UTF_8)).isEmpty();
    }

    @Test
    void withoutNodeAndNpmOneLineSaysWhatToInstall() {
        StackOptions options = new StackOptions();
        options.devChainTools = () -> Optional.of("Node.js 20 and npm (no node, no npm on the PATH)");

        assertThat(StackChain.runs(options, console)).isFalse();
        assertThat(printed.toString(StandardCharsets.UTF_8).lines())
                .containsExactly("[stack] no dev chain and no chain-watcher: they need Node.js 20 and npm (no node,"
                        + " no npm on the PATH). Install Node.js 20 (it comes with npm) and start again; everything"
                        + " else runs without them.");
    }

    @Test
    void turnedOffItIsNotEvenLookedFor() {
        AtomicInteger asked = new AtomicInteger();
        StackOptions options = new StackOptions().devChain(false);
        options.devChainTools = () -> {
            asked.incrementAndGet();
            return Optional.empty();
        };

        assertThat(StackChain.runs(options, console)).isFalse();
        assertThat(asked).hasValue(0);
        assertThat(printed.toString(StandardCharsets.UTF_8))
                .isEqualTo(
                        "[stack] dev chain and chain-watcher not started (STACK_CHAIN=off)" + System.lineSeparator());
    }
}
