package dev.cryptopay.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cryptopay.deploy.chain.CustomerAccount;
import dev.cryptopay.deploy.sandbox.SandboxWallet;
import dev.cryptopay.testsupport.webhook.WebhookReceiver;
import dev.cryptopay.testsupport.webhook.WebhookReceiver.Reply;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * The whole stack through the launcher code, as {@code ./run-local} starts it but on free ports, in a temporary
 * data directory and with its databases: real PostgreSQL, real Kafka, the dev chain (anvil), the five
 * service jars as processes. Needs the service jars ({@code ./mvnw -DskipTests install}; the reactor builds them
 * before this module) and Node.js 20 with npm (the dev chain).
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class LocalStackTest {

    private static final List<String> SERVICES = List.of(
            "gateway",
            "payment-links-service",
            "subscriptions-service",
            "webhook-service",
            "notification-service",
            "chain-watcher");

    private static final String COFFEE = "{\"payment_name\":\"Coffee\",\"amount\":10.5,\"currency\":\"USDC\"}";

    private static final ByteArrayOutputStream printed = new ByteArrayOutputStream();
    private static StackOptions options;
    private static LocalStack stack;
    private static String paidLinkId;

    @BeforeAll
    static void startStack() {
        options = StackOptions.forTests().devChain(true);
        options.deleteDataDirOnClose = false; // the restart test starts a second stack on the same data
        options.dropDatabasesOnClose = false;
        options.classDataSharing = true; // the first close records the archives, the restart uses them
        options.out = StackTestSupport.teeToStdout(printed);
        stack = LocalStack.start(options);
    }

    @AfterAll
    static void stopStack() {
        if (stack != null) {
            stack.options.dropDatabasesOnClose = true;
            stack.options.deleteDataDirOnClose = true;
            stack.close();
        }
    }

    @Test
    @Order(1)
    void printedCredentialsSignAccountAndPaymentLinkRequestsThroughTheGateway() {
        String output = printed.toString(StandardCharsets.UTF_8);
        String baseUrl = StackTestSupport.find(output, "Base URL\\s+(http://127\\.0\\.0\\.1:\\d+/api/v1)");
        String apiKey = StackTestSupport.find(output, "API key\\s+(mk_test_[A-Z2-7]{32})");
        String publishableKey = StackTestSupport.find(output, "Publishable\\s+(pk_test_[A-Z2-7]{32})");
        String privateKey = StackTestSupport.find(output, "Private key\\s+(Ed25519:\\S+)");
        assertThat(output)
                .containsPattern("\\[stack\\] gateway ready in \\d+\\.\\d s")
                .containsPattern("\\[stack\\] payment-links-service ready in \\d+\\.\\d s")
                .containsPattern("\\[stack\\] subscriptions-service ready in \\d+\\.\\d s")
                .containsPattern("\\[stack\\] webhook-service ready in \\d+\\.\\d s")
                .containsPattern("\\[stack\\] chain-watcher ready in \\d+\\.\\d s")
                .containsPattern(
                        "\\[stack\\] dev chain \\(anvil\\) ready at http://127\\.0\\.0\\.1:\\d+ in \\d+\\.\\d s, new "
                                + "chain: test tokens deployed, customer account funded")
                .contains("sandbox merchant " + stack.credentials().merchantId() + " created")
                .containsPattern("\\[stack\\] sandbox wallet 0x[0-9a-fA-F]{40} registered as the receiving key")
                .contains("Customer     " + CustomerAccount.ADDRESS)
                .contains("key " + CustomerAccount.PRIVATE_KEY)
                .contains("a PUBLIC test key");

        SignedClient client = new SignedClient(baseUrl, apiKey, privateKey);
        HttpResponse<String> account = client.get("/account");
        assertThat(account.statusCode()).as(account.body()).isEqualTo(200);
        assertThat(account.body())
                .contains("\"merchant_id\":\"" + stack.credentials().merchantId() + "\"")
                .contains("\"mode\":\"test\"");

        // The printed publishable key names the merchant on the public payment report: the gateway lets it through,
        // and the service judges the (incomplete) report.
        assertThat(publishableKey).isEqualTo(stack.credentials().publishableKey());
        HttpResponse<String> report = StackTestSupport.post(
                baseUrl + "/public/subscriptions/link/payment", "{\"merchant_key\":\"" + publishableKey + "\"}");
        assertThat(report.statusCode()).as(report.body()).isEqualTo(400);
        assertThat(report.body()).contains("validation_failed");

        String docs = StackTestSupport.find(output, "API docs\\s+(http://127\\.0\\.0\\.1:\\d+/docs)");
        assertThat(docs).isEqualTo(stack.gatewayUrl() + "/docs");
        HttpResponse<String> page = StackTestSupport.get(docs);
        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.body()).contains("swagger-ui");

        HttpResponse<String> link = client.post("/payment_links", COFFEE);
        assertThat(link.statusCode()).as(link.body()).isEqualTo(201);
        assertThat(link.body()).contains("\"payment_name\":\"Coffee\"").contains("\"is_test\":true");
        String wallet = StackTestSupport.find(output, "Wallet\\s+(0x[0-9a-fA-F]{40})");
        assertThat(link.body())
                .as("the first link is paid to the sandbox wallet's account 0")
                .contains("\"deposit_address\":\"" + wallet + "\"")
                .contains("\"chain_id\":31337");
    }

    @Test
    @Order(2)
    void stackEnvHoldsBaseUrlKeysAdminAccessWalletChainAndCustomer() throws Exception {
        List<String> lines = Files.readAllLines(stack.files.stackEnvFile);
        assertThat(lines).hasSize(15);
        Map<String, String> env = EnvFile.read(stack.files.stackEnvFile);
        assertThat(env)
                .containsOnlyKeys(
                        "BASE_URL",
                        "API_KEY",
                        "PUBLISHABLE_KEY",
                        "PRIVATE_KEY",
                        "ADMIN_URL",
                        "ADMIN_TOKEN",
                        "SANDBOX_WALLET_ADDRESS",
                        "SANDBOX_WALLET_XPUB",
                        "SANDBOX_TREASURY_ADDRESS",
                        "DEV_CHAIN_RPC_URL",
                        "DEV_CHAIN_ID",
                        "CUSTOMER_ADDRESS",
                        "CUSTOMER_PRIVATE_KEY",
                        "EXAMPLE_PLAN_ID",
                        "EXAMPLE_INVITATION_URL")
                .containsEntry(
                        "DEV_CHAIN_RPC_URL", stack.devChain().orElseThrow().rpcUrl())
                .containsEntry("DEV_CHAIN_ID", "31337")
                .containsEntry("CUSTOMER_ADDRESS", CustomerAccount.ADDRESS)
                .containsEntry("CUSTOMER_PRIVATE_KEY", CustomerAccount.PRIVATE_KEY)
                .containsEntry("BASE_URL", stack.baseUrl())
                .containsEntry("API_KEY", stack.credentials().apiKey())
                .containsEntry("PUBLISHABLE_KEY", stack.credentials().publishableKey())
                .containsEntry("PRIVATE_KEY", stack.credentials().privateKey())
                .containsEntry("ADMIN_URL", stack.adminUrl())
                .containsEntry("ADMIN_TOKEN", stack.adminToken());
        assertThat(env.get("PRIVATE_KEY")).startsWith("Ed25519:");
        assertThat(env.get("SANDBOX_WALLET_XPUB")).startsWith("xpub");
        assertThat(Files.getPosixFilePermissions(stack.files.root.resolve("sandbox-wallet.txt")))
                .isEqualTo(PosixFilePermissions.fromString("rw-------"));
        HttpResponse<String> registered = stack.client().get("/payment_links/receiving_key");
        assertThat(registered.statusCode()).as(registered.body()).isEqualTo(200);
        assertThat(registered.body()).contains(env.get("SANDBOX_WALLET_XPUB"));
        assertThat(Files.readString(stack.files.sandboxKeyPem)).startsWith("-----BEGIN PRIVATE KEY-----");

        HttpResponse<String> keys = HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(URI.create(env.get("ADMIN_URL") + "/admin/merchants/"
                                        + stack.credentials().merchantId() + "/keys"))
                                .header("Authorization", "Bearer " + env.get("ADMIN_TOKEN"))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
        assertThat(keys.statusCode()).as(keys.body()).isEqualTo(200);
        assertThat(keys.body())
                .contains(stack.credentials().apiKey().substring(0, 12))
                .contains(stack.credentials().publishableKey());
    }

    @Test
    @Order(2)
    void theSandboxWalletSignsAnExamplePlanAndTheCustomerIsInvitedToIt() {
        Map<String, String> env = EnvFile.read(stack.files.stackEnvFile);
        String planId = env.get("EXAMPLE_PLAN_ID");
        String invitation = env.get("EXAMPLE_INVITATION_URL");
        String output = printed.toString(StandardCharsets.UTF_8);
        assertThat(output)
                .contains("[stack] example plan " + planId + " created (\"Example monthly plan\", 10 USDC every 30 "
                        + "days to the treasury address, signed by the sandbox wallet); the dev customer is invited to "
                        + "it (the invitation is e-mailed to dev-customer@example.test: ./dev-mail)")
                .contains("               treasury " + env.get("SANDBOX_TREASURY_ADDRESS")
                        + " receives the example plan's subscriptions")
                .contains("        ./dev-subscribe \"" + invitation + "\"");

        HttpResponse<String> plan = stack.client().get("/subscriptions/plans/" + planId);
        assertThat(plan.statusCode()).as(plan.body()).isEqualTo(200);
        assertThat(plan.body())
                .contains("\"name\":\"Example monthly plan\"")
                .contains("\"status\":\"active\"")
                .contains("\"chain_id\":31337")
                .contains("\"merchant_address\":\"" + env.get("SANDBOX_WALLET_ADDRESS") + "\"")
                // The treasury, not account 0: that is the first link's deposit address, which would see the charges.
                .contains("\"destination_address\":\"" + env.get("SANDBOX_TREASURY_ADDRESS") + "\"")
                .contains("\"token\":\"0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512\"")
                .contains("\"amount\":\"10000000\"")
                .contains("\"interval\":2592000");

        String subscriberId = StackTestSupport.find(invitation, "subscriber_id=([0-9a-f-]{36})$");
        assertThat(invitation).isEqualTo(stack.gatewayUrl() + "/checkout/subscribe?subscriber_id=" + subscriberId);
        HttpResponse<String> subscriber = stack.client().get("/subscriber/" + subscriberId);
        assertThat(subscriber.body())
                .contains("\"status\":\"invitation_sent\"")
                .contains("\"customer_name\":\"Dev customer\"")
                .contains(planId);
        HttpResponse<String> page = StackTestSupport.get(invitation);
        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.body())
                .as("the page checks the plan's signature against the sandbox wallet")
                .contains("data-verified=\"true\"")
                .contains("data-state=\"invitation\"");
    }

    @Test
    @Order(2)
    void theInvitationIsEmailedToTheDevCustomerAndDevMailListsAndPrintsIt() throws Exception {
        String invitation = EnvFile.read(stack.files.stackEnvFile).get("EXAMPLE_INVITATION_URL");
        Map<String, String> env = Map.of("STACK_ENV", stack.files.stackEnvFile.toString());
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        String listed = "";
        while (!listed.contains("dev-customer@example.test") && System.nanoTime() < deadline) {
            Thread.sleep(200);
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            assertThat(DevMail.run(new String[0], env, new PrintStream(out, true, StandardCharsets.UTF_8), System.err))
                    .isZero();
            listed = out.toString(StandardCharsets.UTF_8);
        }
        assertThat(listed)
                .as("./dev-mail lists the invitation")
                .contains("dev-customer@example.test")
                .contains("[Test mode] Local sandbox invites you to subscribe: Example monthly plan");
        String number = StackTestSupport.find(listed, "(?m)^\\s*(\\d+)\\s.*dev-customer@example\\.test");

        ByteArrayOutputStream shown = new ByteArrayOutputStream();
        assertThat(DevMail.run(
                        new String[] {number}, env, new PrintStream(shown, true, StandardCharsets.UTF_8), System.err))
                .isZero();
        assertThat(shown.toString(StandardCharsets.UTF_8))
                .contains("To:       dev-customer@example.test")
                .contains("Hello Dev customer,")
                .contains("Amount: 10 USDC")
                .contains("Billed every: 30 days")
                .contains("Review and subscribe: " + invitation);
        ByteArrayOutputStream html = new ByteArrayOutputStream();
        assertThat(DevMail.run(
                        new String[] {number, "--html"},
                        env,
                        new PrintStream(html, true, StandardCharsets.UTF_8),
                        System.err))
                .isZero();
        Path page = Path.of(html.toString(StandardCharsets.UTF_8).strip());
        assertThat(Files.readString(page)).contains("href=\"" + invitation.replace("&", "&amp;") + "\"");
        assertThat(printed.toString(StandardCharsets.UTF_8)).contains("  E-mails      ./dev-mail   (SMTP 127.0.0.1:");
    }

    @Test
    @Order(2)
    void theDatabasesAreNamedAfterTheDataDirectoryAndSayWhoseTheyAre() throws Exception {
        try (Connection db = DriverManager.getConnection(
                        stack.postgres.server.jdbcUrl(stack.options.databaseName(StackService.PAYMENT_LINKS)),
                        stack.postgres.server.user(),
                        stack.postgres.server.password());
                ResultSet row = db.createStatement()
                        .executeQuery("SELECT datname, shobj_description(oid, 'pg_database') FROM pg_database"
                                + " WHERE datname = current_database()")) {
            assertThat(row.next()).isTrue();
            assertThat(row.getString(1)).isEqualTo("payment_links" + new StackFiles(stack.files.root).databaseSuffix());
            assertThat(row.getString(2)).isEqualTo("local stack data directory " + stack.files.root.toRealPath());
        }
    }

    @Test
    @Order(2)
    void servicesRunFromImagesUnpackedAtStartSoARebuildCannotPullThemAwayAndAreNamedInThePidFile() {
        List<String> commands = ProcessHandle.current()
                .children()
                .filter(ProcessHandle::isAlive)
                .map(p -> p.info().commandLine().orElse(""))
                .filter(c -> c.contains(stack.files.root + "/jars/"))
                .toList();
        assertThat(commands).hasSize(SERVICES.size());
        assertThat(stack.files.root.resolve("services.pid"))
                .as("the next start stops what is named here if this launcher is killed")
                .content()
                .hasLineCount(SERVICES.size());
        for (String service : SERVICES) {
            String jar = service + "-" + StackService.VERSION + ".jar";
            assertThat(commands)
                    .anyMatch(c -> c.matches(".* -jar " + Pattern.quote(stack.files.root + "/jars/" + service + "-")
                            + "[0-9a-f]{12}/" + Pattern.quote(jar)))
                    .anyMatch(c -> c.contains("-XX:ArchiveClassesAtExit=" + stack.files.root + "/jars/" + service));
        }
    }

    @Test
    @Order(3)
    void signedRequestToolSignsWithStackEnv() {
        Map<String, String> env = Map.of("STACK_ENV", stack.files.stackEnvFile.toString());
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
    @Order(3)
    void aLinkPaidWithDevPayIsCompletedByChainWatcher() throws Exception {
        SignedClient client = stack.client();
        HttpResponse<String> created =
                client.post("/payment_links", "{\"payment_name\":\"Scarf\",\"amount\":12.25,\"currency\":\"USDC\"}");
        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
        String id = StackTestSupport.find(created.body(), "\"id\":\"([0-9a-f-]{36})\"");
        String paymentUri = StackTestSupport.find(created.body(), "\"payment_uri\":\"([^\"]+)\"");
        assertThat(created.body())
                .contains("\"payment_url\":\"" + stack.baseUrl().replace("/api/v1", "/checkout")
                        + "/payment_link?payment_id=" + id + "\"");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();

        int status = DevPay.run(
                new String[] {paymentUri},
                Map.of("STACK_ENV", stack.files.stackEnvFile.toString()),
                new PrintStream(out, true),
                new PrintStream(err, true));

        assertThat(status).as(err.toString()).isZero();
        String txHash = out.toString().strip();
        assertThat(txHash).matches("0x[0-9a-f]{64}");
        StackTestSupport.awaitUpTo(
                Duration.ofSeconds(90),
                () -> client.get("/payment_links/" + id).body().contains("\"payment_status\":\"completed\""));
        HttpResponse<String> paid = client.get("/payment_links/" + id);
        assertThat(paid.body()).as("chain-watcher reported the payment").contains("\"payment_status\":\"completed\"");
        assertThat(stack.devChain().orElseThrow().receipt(txHash)).isPresent();
        paidLinkId = id;
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

            StackTestSupport.awaitUpTo(
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
    void aKilledServiceIsUnavailableUntilStartedAgainOnItsPort() throws InterruptedException {
        SignedClient client = stack.client();
        stack.killService("payment-links-service");
        assertThat(stack.isRunning("payment-links-service")).isFalse();

        HttpResponse<String> down = client.post("/payment_links", COFFEE);
        assertThat(down.statusCode()).as(down.body()).isEqualTo(503);
        assertThat(down.body()).contains("upstream_unavailable");
        Thread.sleep(2500); // past the first back-off: killed on purpose, so not restarted
        assertThat(stack.isRunning("payment-links-service")).isFalse();
        assertThat(stack.restarts("payment-links-service")).isZero();

        stack.startService("payment-links-service");
        assertThat(stack.isRunning("payment-links-service")).isTrue();
        HttpResponse<String> up = client.post("/payment_links", COFFEE);
        assertThat(up.statusCode()).as(up.body()).isEqualTo(201);
    }

    @Test
    @Order(5)
    void withoutSubscriptionsServiceTheExamplePlanStepSaysHowToDoItByHandAndTheStackRunsOn() {
        stack.killService("subscriptions-service");
        printed.reset();

        StackSandbox.ExamplePlan example =
                StackSandbox.ensureExamplePlan(stack, SandboxWallet.loadOrCreate(stack.files.sandboxWalletFile));

        assertThat(example).isNull();
        assertThat(printed.toString(StandardCharsets.UTF_8))
                .contains("[stack] no example plan or invitation (GET /subscriptions/plans/?search=Example&page_size="
                        + "100 answered HTTP 503")
                .contains("by hand: sign the typed_data of ./signed-request POST /subscriptions/plans/typed-data '{")
                .contains("with the sandbox wallet's account 0");
        stack.startService("subscriptions-service");
        assertThat(stack.client().get("/account").statusCode()).isEqualTo(200);
    }

    @Test
    @Order(5)
    void chainWatcherKilledFromOutsideIsRestartedAndReportsAPaymentMadeWhileItWasDown() throws Exception {
        SignedClient client = stack.client();
        HttpResponse<String> created =
                client.post("/payment_links", "{\"payment_name\":\"Gloves\",\"amount\":4.5,\"currency\":\"USDC\"}");
        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
        String id = StackTestSupport.find(created.body(), "\"id\":\"([0-9a-f-]{36})\"");
        String paymentUri = StackTestSupport.find(created.body(), "\"payment_uri\":\"([^\"]+)\"");
        ProcessHandle watcher = ProcessHandle.current()
                .children()
                .filter(p -> p.info().commandLine().orElse("").contains("/jars/chain-watcher-"))
                .findFirst()
                .orElseThrow();
        int restartsBefore = stack.restarts("chain-watcher");

        Process kill = new ProcessBuilder("kill", "-9", String.valueOf(watcher.pid()))
                .inheritIO()
                .start();
        assertThat(kill.waitFor()).isZero();
        watcher.onExit().get(10, TimeUnit.SECONDS);
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int paid = DevPay.run(
                new String[] {paymentUri},
                Map.of("STACK_ENV", stack.files.stackEnvFile.toString()),
                new PrintStream(new ByteArrayOutputStream(), true),
                new PrintStream(err, true));
        assertThat(paid).as(err.toString()).isZero();

        StackTestSupport.awaitUpTo(
                Duration.ofMinutes(4),
                () -> printed.toString(StandardCharsets.UTF_8).contains("chain-watcher ready again in"));
        assertThat(printed.toString(StandardCharsets.UTF_8))
                .contains("[stack] chain-watcher exited with code 137; restarting in 1 s (crash 1 of 5 in 5 min)")
                .containsPattern("\\[stack\\] chain-watcher ready again in \\d+\\.\\d s \\(port \\d+; restarted \\d+ "
                        + "times?\\)");
        assertThat(stack.restarts("chain-watcher")).isEqualTo(restartsBefore + 1);
        assertThat(stack.isRunning("chain-watcher")).isTrue();
        HttpResponse<String> health =
                StackTestSupport.get(stack.serviceUrl("chain-watcher") + "/actuator/health/readiness");
        assertThat(health.statusCode()).as(health.body()).isEqualTo(200);
        assertThat(health.body()).contains("\"UP\"");
        StackTestSupport.awaitUpTo(
                Duration.ofSeconds(90),
                () -> client.get("/payment_links/" + id).body().contains("\"payment_status\":\"completed\""));
        assertThat(client.get("/payment_links/" + id).body())
                .as("the restarted chain-watcher reported the payment made while it was down")
                .contains("\"payment_status\":\"completed\"");
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
            StackTestSupport.awaitUpTo(
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

    @Test
    @Order(7)
    void aRestartKeepsSecretsDataTheSandboxMerchantItsWalletAndTheChain() throws IOException {
        SandboxCredentials before = stack.credentials();
        String adminToken = stack.adminToken();
        Map<String, String> envBefore = EnvFile.read(stack.files.stackEnvFile);
        long height = stack.devChain().orElseThrow().blockNumber();
        stack.close();
        assertThat(ProcessHandle.current()
                        .descendants()
                        .filter(ProcessHandle::isAlive)
                        .map(p -> p.info().commandLine().orElse(""))
                        .filter(c -> c.contains(stack.files.root + "/jars/")
                                || c.contains("anvil") && c.contains(stack.files.root.toString()))
                        .toList())
                .as("service and anvil processes left after close()")
                .isEmpty();
        assertThat(stack.files.root.resolve("chain/state.json")).isRegularFile();
        for (String service : SERVICES) {
            try (Stream<Path> archives = Files.find(
                    stack.files.root.resolve("jars"),
                    2,
                    (path, attributes) ->
                            path.toString().matches(".*/" + service + "-[0-9a-f]{12}/classes-.*\\.jsa"))) {
                assertThat(archives.count())
                        .as("class-data archive recorded by " + service)
                        .isEqualTo(1);
            }
        }

        printed.reset();
        stack = LocalStack.start(options);

        assertThat(printed.toString(StandardCharsets.UTF_8))
                .contains("sandbox merchant " + before.merchantId() + " reused")
                .contains("the chain of the last run continued")
                .contains("sandbox wallet " + envBefore.get("SANDBOX_WALLET_ADDRESS") + " registered again")
                .contains("[stack] example plan " + envBefore.get("EXAMPLE_PLAN_ID") + " reused");
        Map<String, String> envAfter = EnvFile.read(stack.files.stackEnvFile);
        assertThat(envAfter.get("EXAMPLE_PLAN_ID")).isEqualTo(envBefore.get("EXAMPLE_PLAN_ID"));
        assertThat(envAfter.get("EXAMPLE_INVITATION_URL"))
                .as("a new invitation on every start")
                .isNotEqualTo(envBefore.get("EXAMPLE_INVITATION_URL"));
        assertThat(stack.client().get("/subscriptions/plans/?search=Example").body())
                .as("no second example plan")
                .contains("\"total\":1");
        assertThat(EnvFile.read(stack.files.stackEnvFile))
                .containsEntry("SANDBOX_WALLET_XPUB", envBefore.get("SANDBOX_WALLET_XPUB"));
        assertThat(stack.devChain().orElseThrow().blockNumber())
                .as("blocks kept")
                .isGreaterThanOrEqualTo(height);
        if (paidLinkId != null) {
            assertThat(stack.client().get("/payment_links/" + paidLinkId).body())
                    .contains("\"payment_status\":\"completed\"");
        }
        for (String service : SERVICES) {
            long pid = ProcessHandle.current()
                    .children()
                    .filter(p -> p.info().commandLine().orElse("").contains("/jars/" + service + "-"))
                    .findFirst()
                    .orElseThrow()
                    .pid();
            assertThat(Files.readString(Path.of("/proc/" + pid + "/maps")))
                    .as(service + " maps its class-data archive")
                    .containsPattern("/jars/" + service + "-[0-9a-f]{12}/classes-[0-9a-f]{12}\\.jsa");
        }
        assertThat(stack.credentials().apiKey()).isEqualTo(before.apiKey());
        assertThat(stack.credentials().publishableKey()).isEqualTo(before.publishableKey());
        assertThat(stack.adminToken()).isEqualTo(adminToken);
        HttpResponse<String> links = stack.client().get("/payment_links?search=Coffee");
        assertThat(links.statusCode()).as(links.body()).isEqualTo(200);
        assertThat(links.body()).contains("\"payment_name\":\"Coffee\"");
    }
}
