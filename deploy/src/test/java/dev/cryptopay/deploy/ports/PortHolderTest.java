package dev.cryptopay.deploy.ports;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class PortHolderTest {

    private static final String SERVICE = "/usr/lib/jvm/java-17/bin/java -XX:+UseSerialGC "
            + "-javaagent:/repo/.local/parent-watch.jar=4242 -jar /repo/.local/jars/gateway-0.1.0-SNAPSHOT.jar";

    @Test
    void aServiceBelongsToTheLauncherNamedInItsAgentArgument() {
        PortHolder holder = new PortHolder(77, SERVICE);

        assertThat(holder.isStackService()).isTrue();
        assertThat(holder.launcherPid()).contains(4242L);
        assertThat(holder.describe()).isEqualTo("pid 77 (java … -jar /repo/.local/jars/gateway-0.1.0-SNAPSHOT.jar)");
    }

    @Test
    void aLauncherBelongsToItself() {
        PortHolder jar = new PortHolder(88, "java -jar deploy/target/deploy-0.1.0-SNAPSHOT-exec.jar");
        PortHolder ide = new PortHolder(89, "java -cp classes dev.cryptopay.deploy.LocalStack");

        assertThat(jar.isStackService()).isFalse();
        assertThat(jar.launcherPid()).contains(88L);
        assertThat(ide.launcherPid()).contains(89L);
    }

    @Test
    void anythingElseBelongsToNoStackAndALongCommandIsCut() {
        PortHolder other = new PortHolder(99, "/usr/bin/python3 -m http.server " + "x".repeat(200));

        assertThat(other.launcherPid()).isEmpty();
        assertThat(other.describe())
                .startsWith("pid 99 (/usr/bin/python3 -m http.server xxx")
                .endsWith("…)")
                .hasSize("pid 99 (".length() + 110 + "…)".length());
    }

    @Test
    void aMalformedAgentArgumentNamesNoLauncher() {
        assertThat(new PortHolder(5, "java -javaagent:/x/parent-watch.jar=abc -jar x.jar").launcherPid())
                .isEmpty();
    }

    @Test
    void theHolderOfAPortThisJvmListensOnIsThisJvm() throws IOException {
        if (!Files.exists(Path.of("/proc/net/tcp"))) {
            return; // the holder is only known on Linux
        }
        try (ServerSocket socket = new ServerSocket()) {
            socket.bind(new InetSocketAddress(0));

            Optional<PortHolder> holder = PortHolder.of(socket.getLocalPort());

            assertThat(holder)
                    .map(PortHolder::pid)
                    .contains(ProcessHandle.current().pid());
            assertThat(holder.get().commandLine()).contains("java");
        }
    }
}
