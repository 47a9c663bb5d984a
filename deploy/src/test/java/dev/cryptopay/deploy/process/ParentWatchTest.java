package dev.cryptopay.deploy.process;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A service JVM carrying the parent-watch agent exits when its launcher is killed with SIGKILL (no shutdown hook
 * runs). Modelled with small JVMs: a "launcher" that starts a child with the agent and is then killed.
 */
class ParentWatchTest {

    @Test
    void aChildExitsSoonAfterItsLauncherIsKilledAndNotBefore(@TempDir Path dir) throws Exception {
        Path agent = ParentWatchAgent.writeJar(dir);
        Process launcher = new ProcessBuilder(
                        ServiceProcess.javaExecutable(),
                        "-cp",
                        System.getProperty("java.class.path"),
                        Launcher.class.getName(),
                        agent.toString())
                .redirectErrorStream(true)
                .start();
        try {
            BufferedReader output =
                    new BufferedReader(new InputStreamReader(launcher.getInputStream(), StandardCharsets.UTF_8));
            long childPid = Long.parseLong(output.readLine().trim());
            ProcessHandle child = ProcessHandle.of(childPid).orElseThrow();

            Thread.sleep(1500);
            assertThat(child.isAlive()).as("child while its launcher lives").isTrue();

            launcher.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            child.onExit().get(10, TimeUnit.SECONDS);
            assertThat(child.isAlive())
                    .as("child after its launcher was killed")
                    .isFalse();
        } finally {
            launcher.destroyForcibly();
            ProcessHandle.current().descendants().forEach(ProcessHandle::destroyForcibly);
        }
    }

    /** Starts {@link Sleeper} with the agent, prints its pid, then waits to be killed. */
    public static final class Launcher {
        public static void main(String[] args) throws Exception {
            Process child = new ProcessBuilder(List.of(
                            ServiceProcess.javaExecutable(),
                            "-javaagent:" + args[0] + "="
                                    + ProcessHandle.current().pid(),
                            "-cp",
                            System.getProperty("java.class.path"),
                            Sleeper.class.getName()))
                    .inheritIO()
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .start();
            System.out.println(child.pid());
            System.out.flush();
            Thread.sleep(120_000);
        }
    }

    /** Stands for a service: runs until something stops it. */
    public static final class Sleeper {
        public static void main(String[] args) throws Exception {
            Thread.sleep(120_000);
        }
    }
}
