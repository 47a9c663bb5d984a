package dev.cryptopay.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The launcher's supervision with real processes killed from outside: the launcher code of {@code ./run-local}
 * ({@link LocalStack#launch}, its supervisors, {@code killService}, {@code close()}) over a small service jar of its
 * own, {@link FakeService}, which answers the readiness check in a fraction of the time a service takes to start.
 * Shortened waits: back-off 100 ms doubling to 400 ms, 5 crashes within 1 min. LocalStackTest kills a real service.
 */
class ServiceRestartTest {

    static final RestartPolicy QUICK = new RestartPolicy(
            Duration.ofMillis(100),
            Duration.ofMillis(400),
            Duration.ofSeconds(30),
            5,
            Duration.ofMinutes(1),
            Duration.ofMillis(100));

    @TempDir
    static Path jarDir;

    private static Path fakeJar;

    private final ByteArrayOutputStream printed = new ByteArrayOutputStream();
    private StackOptions options;
    private LocalStack stack;

    @BeforeAll
    static void buildFakeServiceJar() throws IOException {
        fakeJar = jarDir.resolve("fake-service.jar");
        Manifest manifest = new Manifest();
        manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        manifest.getMainAttributes().put(Attributes.Name.MAIN_CLASS, FakeService.class.getName());
        String entry = FakeService.class.getName().replace('.', '/') + ".class";
        try (JarOutputStream jar = new JarOutputStream(Files.newOutputStream(fakeJar), manifest);
                InputStream bytes = FakeService.class.getClassLoader().getResourceAsStream(entry)) {
            jar.putNextEntry(new JarEntry(entry));
            bytes.transferTo(jar);
            jar.closeEntry();
        }
    }

    @BeforeEach
    void stack() {
        options = StackOptions.forTests();
        options.out = StackTestSupport.teeToStdout(printed);
        options.restartPolicy = QUICK;
        options.readyTimeout = Duration.ofSeconds(60);
        options.jvmOptions = List.of("-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Xmx32m");
        stack = new LocalStack(options);
    }

    @AfterEach
    void closeAndCheckNothingIsLeft() throws InterruptedException {
        stack.close();
        Thread.sleep(1000); // a restart that would wrongly follow the close
        assertThat(fakeServices())
                .as("fake services left running after close()")
                .isEmpty();
    }

    @Test
    void aServiceKilledWithSignal9ComesBackOnItsPortAndAnswersItsHealthCheck() throws Exception {
        ServiceProcess watcher = launch(StackService.CHAIN_WATCHER);
        Process first = watcher.process;

        kill("-9", first);

        StackTestSupport.awaitUpTo(Duration.ofSeconds(60), () -> printed().contains("chain-watcher ready again in"));
        assertThat(printed())
                .contains("[stack] chain-watcher exited with code 137; restarting in 100 ms (crash 1 of 5 in 1 min)")
                .containsPattern("\\[stack\\] chain-watcher ready again in \\d+\\.\\d s \\(port " + watcher.port
                        + "; restarted 1 time\\)");
        assertThat(stack.restarts("chain-watcher")).isEqualTo(1);
        assertThat(stack.isRunning("chain-watcher")).isTrue();
        assertThat(watcher.process.pid()).isNotEqualTo(first.pid());
        assertThat(answersHealthCheck(watcher)).isTrue();
        assertThat(Files.readAllLines(stack.files.servicesPidFile))
                .as("a launcher killed now leaves no unknown service behind")
                .containsExactly(String.valueOf(watcher.process.pid()));
        assertThat(Files.readString(watcher.logFile))
                .as("the restart appends to the log")
                .containsSubsequence(
                        "local stack starts chain-watcher",
                        "fake service up",
                        "local stack starts " + "chain-watcher",
                        "fake service up");
    }

    @Test
    void aServiceStoppedOrKilledOnPurposeStaysStoppedUntilStartedAgain() throws Exception {
        ServiceProcess webhooks = launch(StackService.WEBHOOKS);

        stack.killService("webhook-service");
        Thread.sleep(1500); // exit grace and back-off many times over
        assertThat(stack.isRunning("webhook-service")).isFalse();

        stack.startService("webhook-service");
        assertThat(stack.isRunning("webhook-service")).isTrue();
        stack.stopService("webhook-service");
        Thread.sleep(1500);
        assertThat(stack.isRunning("webhook-service")).isFalse();

        stack.startService("webhook-service");
        kill("-TERM", webhooks.process);
        Thread.sleep(1500);
        assertThat(stack.isRunning("webhook-service"))
                .as("SIGTERM from outside: someone stopped it")
                .isFalse();

        assertThat(stack.restarts("webhook-service")).isZero();
        assertThat(printed())
                .doesNotContain("restarting")
                .contains("[stack] webhook-service was stopped by a signal from outside the launcher (exit code 143); "
                        + "not restarted, the rest keeps running");

        stack.startService("webhook-service");
        kill("-9", webhooks.process);
        StackTestSupport.awaitUpTo(Duration.ofSeconds(60), () -> stack.restarts("webhook-service") == 1);
        StackTestSupport.awaitUpTo(Duration.ofSeconds(60), () -> answersHealthCheck(webhooks));
        assertThat(printed()).contains("webhook-service exited with code 137; restarting in 100 ms (crash 1 of 5");
        assertThat(answersHealthCheck(webhooks)).isTrue();
    }

    @Test
    void theFifthCrashWithinTheWindowIsNotRestartedAndSaysSoWithTheLogsLastLines() throws Exception {
        Path crashFile = jarDir.resolve("crash-" + System.nanoTime());
        ServiceProcess gateway = launch(StackService.GATEWAY);
        ServiceProcess watcher = launch(StackService.CHAIN_WATCHER, Map.of("FAKE_CRASH_FILE", crashFile.toString()));

        Files.createFile(crashFile); // every start from now on exits with code 3 at once
        kill("-9", watcher.process);

        StackTestSupport.awaitUpTo(Duration.ofSeconds(120), () -> printed().contains("gave up"));
        assertThat(printed())
                .contains("[stack] chain-watcher exited with code 137; restarting in 100 ms (crash 1 of 5 in 1 min)")
                .contains("[stack] chain-watcher exited with code 3; restarting in 200 ms (crash 2 of 5 in 1 min)")
                .contains("[stack] chain-watcher exited with code 3; restarting in 400 ms (crash 3 of 5 in 1 min)")
                .contains("[stack] chain-watcher exited with code 3; restarting in 400 ms (crash 4 of 5 in 1 min)")
                .contains("[stack] chain-watcher exited with code 3 (crash 5 of 5 in 1 min); gave up restarting it: it "
                        + "stays stopped, the rest keeps running (a new ./run-local starts it again). Its log is ")
                .containsPattern("logs/chain-watcher\\.log; its last \\d+ lines:\n    ")
                .contains("    fake service: " + crashFile + " exists, crashing")
                .doesNotContain("ready again");
        assertThat(stack.restarts("chain-watcher")).isEqualTo(4);
        Thread.sleep(1500);
        assertThat(stack.isRunning("chain-watcher")).isFalse();
        assertThat(stack.restarts("chain-watcher")).isEqualTo(4);
        assertThat(stack.isRunning("gateway")).as("the rest keeps running").isTrue();
        assertThat(answersHealthCheck(gateway)).isTrue();

        Files.delete(crashFile);
        stack.startService("chain-watcher");
        kill("-9", watcher.process);
        StackTestSupport.awaitUpTo(Duration.ofSeconds(60), () -> stack.restarts("chain-watcher") == 5);
        assertThat(printed())
                .as("a start on purpose forgets the earlier crashes")
                .containsSubsequence(
                        "gave up", "chain-watcher exited with code 137; restarting in 100 ms (crash 1 of 5");
    }

    @Test
    void closingTheStackStopsEverythingAndDropsARestartThatWaits() throws Exception {
        options.restartPolicy = new RestartPolicy(
                Duration.ofSeconds(3),
                Duration.ofSeconds(3),
                Duration.ofSeconds(30),
                5,
                Duration.ofMinutes(1),
                Duration.ofMillis(100)); // read when the stack first supervises a service
        launch(StackService.GATEWAY);
        ServiceProcess watcher = launch(StackService.CHAIN_WATCHER);

        kill("-9", watcher.process);
        StackTestSupport.awaitUpTo(Duration.ofSeconds(10), () -> printed().contains("restarting in 3 s"));
        assertThat(printed()).contains("chain-watcher exited with code 137; restarting in 3 s (crash 1 of 5 in 1 min)");
        stack.close();
        Thread.sleep(4000); // past the back-off

        assertThat(fakeServices()).isEmpty();
        assertThat(stack.restarts("chain-watcher")).isZero();
        assertThat(printed()).doesNotContain("ready again").doesNotContain("was stopped by a signal");
    }

    private ServiceProcess launch(StackService service) throws IOException {
        return launch(service, Map.of());
    }

    /** A fake service started and supervised as the stack does it with a real one, on a free port. */
    private ServiceProcess launch(StackService service, Map<String, String> environment) throws IOException {
        int port;
        try (ServerSocket free = new ServerSocket(0)) {
            port = free.getLocalPort();
        }
        Map<String, String> env = new HashMap<>(environment);
        env.put("PORT", String.valueOf(port));
        ServiceProcess process = new ServiceProcess(service, port, stack.files, options, env);
        process.jar = fakeJar; // its image: no unpacking
        stack.services.launch(process, true);
        stack.services.supervise(process, true);
        return process;
    }

    private static void kill(String signal, Process process) throws Exception {
        Process kill = new ProcessBuilder("kill", signal, String.valueOf(process.pid()))
                .inheritIO()
                .start();
        assertThat(kill.waitFor()).isZero();
        assertThat(process.waitFor(10, TimeUnit.SECONDS)).isTrue();
    }

    private static boolean answersHealthCheck(ServiceProcess process) {
        return ServiceProcess.awaitUp(
                        "http://127.0.0.1:" + process.port + "/actuator/health/readiness",
                        Duration.ofSeconds(5),
                        () -> false,
                        null)
                == null;
    }

    private String printed() {
        return printed.toString(StandardCharsets.UTF_8);
    }

    private static List<String> fakeServices() {
        return ProcessHandle.current()
                .descendants()
                .filter(ProcessHandle::isAlive)
                .map(p -> p.info().commandLine().orElse(""))
                .filter(c -> c.contains(fakeJar.toString()))
                .toList();
    }

    /**
     * Stands for a service: answers {@code /actuator/health/readiness} with UP on {@code PORT} until stopped; exits at
     * once with code 3 while the file {@code FAKE_CRASH_FILE} names exists.
     */
    public static final class FakeService {
        public static void main(String[] args) throws IOException {
            String crashFile = System.getenv("FAKE_CRASH_FILE");
            if (crashFile != null && Files.exists(Path.of(crashFile))) {
                System.out.println("fake service: " + crashFile + " exists, crashing");
                System.exit(3);
            }
            int port = Integer.parseInt(System.getenv("PORT"));
            HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", port), 0);
            server.createContext("/actuator/health/readiness", exchange -> {
                byte[] body = "{\"status\":\"UP\"}".getBytes(StandardCharsets.UTF_8);
                exchange.sendResponseHeaders(200, body.length);
                try (OutputStream out = exchange.getResponseBody()) {
                    out.write(body);
                }
            });
            server.start();
            System.out.println("fake service up on port " + port);
        }
    }
}
