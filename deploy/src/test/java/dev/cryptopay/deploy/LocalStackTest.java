package dev.cryptopay.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cryptopay.testsupport.webhook.WebhookReceiver;
import dev.cryptopay.testsupport.webhook.WebhookReceiver.Reply;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BooleanSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * The whole stack through the launcher code, as {@code ./run-local} starts it but on free ports, in a temporary
 * data directory and with uniquely named databases: real PostgreSQL, real Kafka, the four service jars as processes.
 * Needs the service jars ({@code ./mvnw -DskipTests install}; the reactor builds them before this module).
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class LocalStackTest {

    private static final String COFFEE = "{\"payment_name\":\"Coffee\",\"amount\":10.5,\"currency\":\"USDC\"}";

    private static final ByteArrayOutputStream printed = new ByteArrayOutputStream();
    private static StackOptions options;
    private static LocalStack stack;

    @BeforeAll
    static void startStack() {
        options = StackOptions.forTests()
                .deleteDataDirOnClose(false) // the restart test starts a second stack on the same data
                .dropDatabasesOnClose(false)
                .out(new PrintStream(new Tee(printed, System.out), true, StandardCharsets.UTF_8));
        stack = LocalStack.start(options);
    }

    @AfterAll
    static void stopStack() {
        if (stack != null) {
            stack.options().dropDatabasesOnClose(true).deleteDataDirOnClose(true);
            stack.close();
        }
    }

    @Test
    @Order(1)
    void printedCredentialsSignAccountAndPaymentLinkRequestsThroughTheGateway() {
        String output = printed.toString(StandardCharsets.UTF_8);
        String baseUrl = find(output, "Base URL\\s+(http://127\\.0\\.0\\.1:\\d+/api/v1)");
        String apiKey = find(output, "API key\\s+(mk_test_[A-Z2-7]{32})");
        String privateKey = find(output, "Private key\\s+(Ed25519:\\S+)");
        assertThat(output)
                .containsPattern("\\[stack\\] gateway ready in \\d+\\.\\d s")
                .containsPattern("\\[stack\\] payment-links-service ready in \\d+\\.\\d s")
                .containsPattern("\\[stack\\] subscriptions-service ready in \\d+\\.\\d s")
                .containsPattern("\\[stack\\] webhook-service ready in \\d+\\.\\d s")
                .contains("sandbox merchant " + stack.credentials().merchantId() + " created");

        SignedClient client = new SignedClient(baseUrl, apiKey, privateKey);
        HttpResponse<String> account = client.get("/account");
        assertThat(account.statusCode()).as(account.body()).isEqualTo(200);
        assertThat(account.body())
                .contains("\"merchant_id\":\"" + stack.credentials().merchantId() + "\"")
                .contains("\"mode\":\"test\"");

        HttpResponse<String> link = client.post("/payment_links", COFFEE);
        assertThat(link.statusCode()).as(link.body()).isEqualTo(201);
        assertThat(link.body()).contains("\"payment_name\":\"Coffee\"").contains("\"is_test\":true");
    }

    @Test
    @Order(2)
    void stackEnvHoldsBaseUrlKeysAndAdminAccessInFiveLines() throws Exception {
        List<String> lines = Files.readAllLines(stack.stackEnvFile());
        assertThat(lines).hasSize(5);
        Map<String, String> env = EnvFile.read(stack.stackEnvFile());
        assertThat(env)
                .containsOnlyKeys("BASE_URL", "API_KEY", "PRIVATE_KEY", "ADMIN_URL", "ADMIN_TOKEN")
                .containsEntry("BASE_URL", stack.baseUrl())
                .containsEntry("API_KEY", stack.credentials().apiKey())
                .containsEntry("PRIVATE_KEY", stack.credentials().privateKey())
                .containsEntry("ADMIN_URL", stack.adminUrl())
                .containsEntry("ADMIN_TOKEN", stack.adminToken());
        assertThat(env.get("PRIVATE_KEY")).startsWith("Ed25519:");
        assertThat(Files.readString(stack.credentials().pemFile())).startsWith("-----BEGIN PRIVATE KEY-----");

        HttpResponse<String> keys = HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(URI.create(env.get("ADMIN_URL") + "/admin/merchants/"
                                        + stack.credentials().merchantId() + "/keys"))
                                .header("Authorization", "Bearer " + env.get("ADMIN_TOKEN"))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
        assertThat(keys.statusCode()).as(keys.body()).isEqualTo(200);
        assertThat(keys.body()).contains(stack.credentials().apiKey().substring(0, 12));
    }

    @Test
    @Order(2)
    void servicesRunFromJarsLinkedAtStartSoARebuildCannotPullThemAway() {
        List<String> commands = ProcessHandle.current()
                .children()
                .filter(ProcessHandle::isAlive)
                .map(p -> p.info().commandLine().orElse(""))
                .filter(c -> c.contains("parent-watch.jar"))
                .toList();
        assertThat(commands).hasSize(4);
        for (String service : List.of("gateway", "payment-links-service", "subscriptions-service", "webhook-service")) {
            String jar = service + "-" + StackService.VERSION + ".jar";
            assertThat(commands)
                    .anyMatch(c ->
                            c.contains("-jar " + stack.dataDir().resolve("jars").resolve(jar)));
            assertThat(stack.dataDir().resolve("jars").resolve(jar)).isRegularFile();
        }
    }

    @Test
    @Order(3)
    void signedRequestToolSignsWithStackEnv() {
        Map<String, String> env = Map.of("STACK_ENV", stack.stackEnvFile().toString());
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();

        int status = SignedRequest.run(
                new String[] {"GET", "/account"}, env, new PrintStream(out, true), new PrintStream(err, true));
        assertThat(status).as(err.toString()).isZero();
        assertThat(err.toString()).contains("HTTP 200");
        assertThat(out.toString()).contains(stack.credentials().merchantId());

        out.reset();
        err.reset();
        status = SignedRequest.run(
                new String[] {"POST", "/payment_links", COFFEE},
                env,
                new PrintStream(out, true),
                new PrintStream(err, true));
        assertThat(status).as(out.toString()).isZero();
        assertThat(err.toString()).contains("HTTP 201");
        assertThat(out.toString()).contains("\"payment_name\":\"Coffee\"");

        err.reset();
        status = SignedRequest.run(
                new String[] {"GET", "/account"},
                Map.of("STACK_ENV", "/nonexistent/stack.env"),
                new PrintStream(out, true),
                new PrintStream(err, true));
        assertThat(status).isEqualTo(2);
        assertThat(err.toString()).contains("does not exist").contains("./run-local");
    }

    @Test
    @Order(4)
    void webhooksReachALoopbackEndpointAndAreRetriedOnTheSandboxSchedule() throws Exception {
        // Every event's first attempt is answered 500, later ones 200. Events of links made by earlier tests may
        // arrive too (intake matches endpoints when it reads an event), so the test follows its own link's event.
        Set<String> seen = ConcurrentHashMap.newKeySet();
        try (WebhookReceiver receiver =
                new WebhookReceiver().otherwise(request -> Reply.status(seen.add(request.bodyText()) ? 500 : 200))) {
            SignedClient client = stack.client();
            HttpResponse<String> endpoint = client.post(
                    "/webhook-endpoints", "{\"url\":\"" + receiver.url() + "\",\"events\":[\"payment.created\"]}");
            assertThat(endpoint.statusCode()).as(endpoint.body()).isEqualTo(201);
            String orderId = "ORD-WEBHOOK-TEST-" + System.nanoTime();
            HttpResponse<String> link = client.post(
                    "/payment_links",
                    "{\"payment_name\":\"Tea\",\"amount\":3,\"currency\":\"USDC\",\"order_id\":\"" + orderId + "\"}");
            assertThat(link.statusCode()).as(link.body()).isEqualTo(201);

            awaitUpTo(
                    Duration.ofSeconds(90),
                    () -> requestsMentioning(receiver, orderId).size() >= 2);
            List<WebhookReceiver.Received> attempts = requestsMentioning(receiver, orderId);
            // First attempt answered 500; the sandbox schedule (0s,5s,...) retries 5 s later, not 5 min.
            assertThat(attempts).as("delivery attempts").hasSizeGreaterThanOrEqualTo(2);
            assertThat(attempts.get(0).bodyText())
                    .contains("\"type\":\"payment.created\"")
                    .contains(orderId);
            assertThat(attempts.get(1).body()).isEqualTo(attempts.get(0).body());
            assertThat(Duration.between(attempts.get(0).at(), attempts.get(1).at()))
                    .isBetween(Duration.ofSeconds(4), Duration.ofSeconds(30));
        }
    }

    @Test
    @Order(5)
    void aKilledServiceIsUnavailableUntilStartedAgainOnItsPort() {
        SignedClient client = stack.client();
        stack.killService("payment-links-service");
        assertThat(stack.isRunning("payment-links-service")).isFalse();

        HttpResponse<String> down = client.post("/payment_links", COFFEE);
        assertThat(down.statusCode()).as(down.body()).isEqualTo(503);
        assertThat(down.body()).contains("upstream_unavailable");

        stack.startService("payment-links-service");
        assertThat(stack.isRunning("payment-links-service")).isTrue();
        HttpResponse<String> up = client.post("/payment_links", COFFEE);
        assertThat(up.statusCode()).as(up.body()).isEqualTo(201);
    }

    @Test
    @Order(6)
    void eventsWrittenWhileKafkaIsStoppedAreDeliveredOnceItIsBack() throws Exception {
        try (WebhookReceiver receiver = new WebhookReceiver()) {
            SignedClient client = stack.client();
            HttpResponse<String> endpoint = client.post(
                    "/webhook-endpoints", "{\"url\":\"" + receiver.url() + "\",\"events\":[\"payment.created\"]}");
            assertThat(endpoint.statusCode()).as(endpoint.body()).isEqualTo(201);

            stack.stopKafka();
            String orderId = "ORD-KAFKA-DOWN-" + System.nanoTime();
            HttpResponse<String> link = client.post(
                    "/payment_links",
                    "{\"payment_name\":\"Cake\",\"amount\":2,\"currency\":\"USDC\",\"order_id\":\"" + orderId + "\"}");
            assertThat(link.statusCode())
                    .as("the outbox keeps the event: " + link.body())
                    .isEqualTo(201);
            Thread.sleep(1000);
            assertThat(requestsMentioning(receiver, orderId)).isEmpty();

            stack.startKafka();
            awaitUpTo(
                    Duration.ofSeconds(90),
                    () -> !requestsMentioning(receiver, orderId).isEmpty());
            assertThat(requestsMentioning(receiver, orderId))
                    .anyMatch(request -> request.bodyText().contains("\"type\":\"payment.created\""));
        }
    }

    private static List<WebhookReceiver.Received> requestsMentioning(WebhookReceiver receiver, String text) {
        return receiver.received().stream()
                .filter(request -> request.bodyText().contains(text))
                .toList();
    }

    private static void awaitUpTo(Duration limit, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + limit.toNanos();
        while (!condition.getAsBoolean() && System.nanoTime() < deadline) {
            Thread.sleep(200);
        }
    }

    @Test
    @Order(7)
    void aRestartKeepsSecretsDataAndTheSandboxMerchant() {
        SandboxCredentials before = stack.credentials();
        String adminToken = stack.adminToken();
        stack.close();
        assertThat(ProcessHandle.current()
                        .descendants()
                        .filter(ProcessHandle::isAlive)
                        .map(p -> p.info().commandLine().orElse(""))
                        .filter(c -> c.contains("parent-watch.jar"))
                        .toList())
                .as("service processes left after close()")
                .isEmpty();

        printed.reset();
        stack = LocalStack.start(options);

        assertThat(printed.toString(StandardCharsets.UTF_8))
                .contains("sandbox merchant " + before.merchantId() + " reused");
        assertThat(stack.credentials().apiKey()).isEqualTo(before.apiKey());
        assertThat(stack.adminToken()).isEqualTo(adminToken);
        HttpResponse<String> links = stack.client().get("/payment_links?search=Coffee");
        assertThat(links.statusCode()).as(links.body()).isEqualTo(200);
        assertThat(links.body()).contains("\"payment_name\":\"Coffee\"");
    }

    private static String find(String text, String regex) {
        Matcher matcher = Pattern.compile(regex).matcher(text);
        assertThat(matcher.find()).as("'" + regex + "' in:\n" + text).isTrue();
        return matcher.group(1);
    }

    /** Writes to both streams: the test reads what was printed, the build log still shows it. */
    private static final class Tee extends OutputStream {
        private final OutputStream first;
        private final OutputStream second;

        Tee(OutputStream first, OutputStream second) {
            this.first = first;
            this.second = second;
        }

        @Override
        public synchronized void write(int b) throws IOException {
            first.write(b);
            second.write(b);
        }

        @Override
        public synchronized void write(byte[] b, int off, int len) throws IOException {
            first.write(b, off, len);
            second.write(b, off, len);
        }

        @Override
        public void flush() throws IOException {
            first.flush();
            second.flush();
        }
    }
}
