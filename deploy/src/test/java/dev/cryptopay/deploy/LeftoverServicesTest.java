package dev.cryptopay.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A launcher killed with SIGKILL runs no shutdown hook: the services it started are named in {@code services.pid} and
 * the next start on that data directory stops them. A pid now used by another program is left alone.
 */
class LeftoverServicesTest {

    @Test
    void theNextStartStopsTheServicesOfAKilledLauncherAndNothingElse(@TempDir Path dir) throws Exception {
        StackFiles files = new StackFiles(dir);
        Process service = sleeper("-Dimage=" + files.jarsDir.resolve("gateway-0123456789ab/gateway.jar"));
        Process stranger = sleeper("-Dimage=/elsewhere");
        try {
            files.recordServices(List.of(service, stranger));
            assertThat(Files.readAllLines(files.servicesPidFile))
                    .containsExactly(String.valueOf(service.pid()), String.valueOf(stranger.pid()));

            assertThat(files.stopLeftoverServices()).containsExactly(service.pid());

            assertThat(service.waitFor(10, TimeUnit.SECONDS)).isTrue();
            assertThat(stranger.isAlive())
                    .as("a process not running from the data directory's jars")
                    .isTrue();
            assertThat(files.servicesPidFile).doesNotExist();
            assertThat(files.stopLeftoverServices()).isEmpty();
        } finally {
            service.destroyForcibly();
            stranger.destroyForcibly();
        }
    }

    private static Process sleeper(String marker) throws Exception {
        return new ProcessBuilder(
                        ServiceProcess.JAVA,
                        marker,
                        "-cp",
                        System.getProperty("java.class.path"),
                        Sleeper.class.getName())
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectErrorStream(true)
                .start();
    }

    /** Stands for a service: runs until something stops it. */
    public static final class Sleeper {
        public static void main(String[] args) throws Exception {
            Thread.sleep(120_000);
        }
    }
}
