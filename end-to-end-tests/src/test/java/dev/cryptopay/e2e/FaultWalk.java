package dev.cryptopay.e2e;

import static dev.cryptopay.e2e.SuiteStack.JSON;
import static dev.cryptopay.e2e.SuiteStack.sleep;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cryptopay.auth.Mode;
import dev.cryptopay.deploy.EnvFile;
import dev.cryptopay.deploy.LocalStack;
import dev.cryptopay.deploy.SignedClient;
import dev.cryptopay.deploy.sandbox.SandboxWallet;
import dev.cryptopay.testsupport.chain.DevChain;
import dev.cryptopay.testsupport.chain.DevTokens;
import dev.cryptopay.testsupport.chain.SubscriptionContract;
import dev.cryptopay.testsupport.webhook.WebhookReceiver;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.web3j.crypto.MnemonicUtils;
import org.web3j.protocol.core.methods.response.TransactionReceipt;
import org.web3j.utils.Numeric;
import tools.jackson.databind.JsonNode;

/**
 * The fault walk's load and faults on a stack that runs two instances of every service (see
 * {@link FaultWalkEndToEndTest}): payment links created through the gateway and paid on the dev chain one after the
 * other, subscriptions to the launcher's example plan billed a period at a time by moving the chain's clock, blocks
 * mined every second, every event delivered to a local receiver; the faults, each timed until it healed.
 */
final class FaultWalk implements AutoCloseable {

    /** How long any fault may take to heal before the walk fails. */
    static final Duration HEAL_LIMIT = Duration.ofSeconds(150);

    static final List<String> EVENTS = List.of("payment.created", "payment.completed", "subscription.payment.success");

    /** The example plan's period: 30 days of chain time. */
    private static final long PERIOD_SECONDS = 2_592_000;
    /** The allowance each subscriber grants: enough periods for the longest walk. */
    private static final int ALLOWED_PERIODS = 40;

    private static final BigInteger LINK_UNITS = DevTokens.USDC.baseUnits("1.25");

    final LocalStack stack;
    final DevChain chain;
    /** The launcher's sandbox merchant, whose example plan the subscribers join. */
    final SignedClient api;
    /** A merchant of the walk's own for the links, so that they are all the walk's. */
    final SignedClient links;

    final WebhookReceiver receiver = new WebhookReceiver();
    /** Dev account 8 pays the links. */
    final String payer;

    final List<PaidLink> paid = new CopyOnWriteArrayList<>();
    final List<Enrolled> subscriptions = new ArrayList<>();
    final List<Healed> healed = new ArrayList<>();
    /** Requests the load sent again after a 5xx, a 429 or a broken connection: what the faults cost callers. */
    final AtomicInteger retried = new AtomicInteger();
    /** Periods due so far: the first (paid by subscribing) and one for each move of the chain's clock. */
    int duePeriods = 1;

    private final ExecutorService load = Executors.newFixedThreadPool(2);
    private final List<Future<?>> running = new ArrayList<>();
    private volatile boolean stopping;
    private volatile boolean paused;
    private volatile boolean linkLoadIdle;
    private volatile boolean minerIdle;

    record PaidLink(String id, String name, String txHash, Instant paidAt) {}

    /** A subscription link and its id on the contract (0x-hex bytes32). */
    record Enrolled(String linkId, String wallet, String contractId) {}

    /** A fault and how long each part of its healing took, in seconds from the fault; requests retried meanwhile. */
    record Healed(String fault, Map<String, Double> seconds, int retriedRequests) {}

    FaultWalk(LocalStack stack) {
        this.stack = stack;
        this.chain = stack.devChain().orElseThrow(() -> new AssertionError("the walk runs with the dev chain"));
        this.api = stack.client();
        this.links = new SignedClient(stack.baseUrl(), stack.newMerchant("Fault walk shop", Mode.TEST));
        this.payer = chain.accounts().get(8);
    }

    // ---- set-up and load ----

    /** The webhook endpoint, a large balance for the payer, and {@code count} subscribers enrolled in the example plan. */
    void prepare(int count) {
        byte[] entropy = new byte[16];
        new SecureRandom().nextBytes(entropy);
        SandboxWallet wallet = SandboxWallet.fromMnemonic(MnemonicUtils.generateMnemonic(entropy));
        expect(
                201,
                links.send(
                        "PUT",
                        SandboxWallet.RECEIVING_KEY_PATH,
                        "{\"extended_public_key\":\"" + wallet.extendedPublicKey() + "\"}"));
        SuiteStack.register(links, receiver.url(), EVENTS);
        SuiteStack.register(api, receiver.url(), EVENTS);
        chain.mint(DevTokens.USDC, payer, DevTokens.USDC.baseUnits("1000000"));
        String planId = EnvFile.read(stack.stackEnvFile()).get("EXAMPLE_PLAN_ID");
        assertThat(planId).as("the launcher made its example plan").isNotBlank();
        for (int i = 0; i < count; i++) {
            subscriptions.add(enrol(planId, chain.accounts().get(5 + i)));
        }
        chain.mine(2);
        awaitCollected("the enrolments confirmed");
    }

    /** A subscriber invited by the merchant, enrolled by its wallet with the kit the public routes give it. */
    private Enrolled enrol(String planId, String wallet) {
        JsonNode invited = expect(201, api.post("/subscriber/", "{\"subscription_plan_id\":\"" + planId + "\"}"));
        String subscriberId = invited.get("id").asString();
        JsonNode kit = expect(
                200,
                SuiteStack.httpGet(stack.baseUrl() + "/public/subscriber/prepare?subscriber_id=" + subscriberId
                        + "&wallet_address=" + wallet + "&periods=" + ALLOWED_PERIODS));
        JsonNode approval = kit.get("approval");
        chain.mint(DevTokens.USDC, wallet, new BigInteger(approval.get("amount").asString()));
        TransactionReceipt subscribed = null;
        for (JsonNode transaction : kit.get("transactions")) {
            subscribed = chain.sendTransaction(
                    wallet,
                    transaction.get("to").asString(),
                    transaction.get("data").asString(),
                    BigInteger.ZERO);
            assertThat(subscribed.isStatusOK()).as("the kit's transaction").isTrue();
        }
        Map<String, Object> enrolment = new LinkedHashMap<>();
        enrolment.put("subscription_plan_id", planId);
        enrolment.put("subscriber_id", subscriberId);
        enrolment.put("wallet_address", wallet);
        enrolment.put("subscribe_hash", subscribed.getTransactionHash());
        enrolment.put(
                "approvals",
                List.of(Map.of(
                        "token_address", approval.get("token").asString(),
                        "amount_approved", approval.get("amount").asString(),
                        "network_name", approval.get("network_name").asString())));
        JsonNode link = expect(
                201, SuiteStack.publicPost(stack, "/public/subscriptions/link/", JSON.writeValueAsString(enrolment)));
        return new Enrolled(
                link.get("id").asString(),
                wallet,
                Numeric.toHexString(SubscriptionContract.subscriptionId(subscribed)));
    }

    /** Starts the load: links created and paid one after the other, and a block mined every second. */
    void startLoad() {
        running.add(load.submit(this::payLinks));
        running.add(load.submit(this::mine));
    }

    private Void payLinks() {
        for (int n = 1; !stopping; n++) {
            linkLoadIdle = paused;
            if (paused) {
                sleep(Duration.ofMillis(100));
                continue;
            }
            String name = "fault-walk-" + n;
            String key = UUID.randomUUID().toString();
            String body = "{\"payment_name\":\"" + name + "\",\"amount\":1.25,\"currency\":\"USDC\"}";
            JsonNode link = retry(
                            "POST /payment_links (" + name + ")",
                            201,
                            () -> links.send("POST", "/payment_links", body, Map.of("Idempotency-Key", key)))
                    .get("data");
            String txHash = chain.transferToken(
                    payer, DevTokens.USDC, link.get("deposit_address").asString(), LINK_UNITS);
            paid.add(new PaidLink(link.get("id").asString(), name, txHash, Instant.now()));
            sleep(Duration.ofMillis(300));
        }
        return null;
    }

    private Void mine() {
        while (!stopping) {
            minerIdle = paused;
            if (!paused) {
                chain.mine(1);
            }
            sleep(Duration.ofSeconds(1));
        }
        return null;
    }

    /** Stops the load; a failure of its own (a request refused for good, say) comes out here. */
    void stopLoad() throws Exception {
        stopping = true;
        for (Future<?> part : running) {
            part.get();
        }
    }

    /** Pauses the link payments and the miner, and waits until both are idle. */
    private void pauseLoad() {
        paused = true;
        await("the load paused", Duration.ofSeconds(90), () -> linkLoadIdle && minerIdle);
    }

    private void resumeLoad() {
        paused = false;
    }

    // ---- the faults ----

    /**
     * One more period falls due (the chain's clock moves a period on), then {@code instance} is killed with SIGKILL as
     * a crash would: the launcher restarts it. Timed: until it is back and ready, until a link paid after the crash
     * completed and its webhook came, until the period is collected and recorded, until the consumer lag is zero.
     */
    void crash(String instance) {
        billPeriod();
        Instant at = Instant.now();
        int retriedBefore = retried.get();
        int restarts = stack.restarts(instance);
        stack.crashService(instance);
        Map<String, Double> seconds = new LinkedHashMap<>();
        healedAfter(at, seconds, Map.of("instance back", () -> stack.restarts(instance) > restarts && ready(instance)));
        healed.add(new Healed("kill -9 " + instance, seconds, retried.get() - retriedBefore));
    }

    /**
     * The chain's lease holder is killed while its keeper's collects wait in the mempool (anvil's automine off): the
     * other instance takes the lease over and must not collect those periods a second time.
     */
    void crashLeaseHolderDuringCollects() {
        pauseLoad();
        SubscriptionContract contract = new SubscriptionContract(chain);
        String holder;
        Instant at;
        int restarts;
        try {
            contract.anvil("evm_setAutomine", false);
            billPeriod();
            await(
                    "the keeper's collects in the mempool",
                    Duration.ofSeconds(60),
                    () -> pendingTransactions(contract) >= subscriptions.size());
            holder = leaseHolder();
            restarts = stack.restarts(holder);
            at = Instant.now();
            stack.crashService(holder);
        } catch (RuntimeException | Error e) {
            contract.anvil("evm_setAutomine", true);
            resumeLoad();
            throw e;
        }
        int retriedBefore = retried.get();
        Map<String, Double> seconds = new LinkedHashMap<>();
        // Taken over by the other instance, or by the killed one restarted (a new process, with a new lease id): the
        // launcher restarts it within the 5 s the lease takes to lapse, and either may win the next pass.
        String[] taker = new String[1];
        try {
            seconds.put("lease taken over", secondsUntil(at, "a chain-watcher holding the lease again", () -> {
                taker[0] = stack.instances("chain-watcher").stream()
                        .filter(instance -> leaseHeld(instance) == 1.0)
                        .findFirst()
                        .orElse(null);
                return taker[0] != null;
            }));
        } finally {
            contract.anvil("evm_setAutomine", true);
            chain.mine(1);
            resumeLoad();
        }
        healedAfter(at, seconds, Map.of("instance back", () -> stack.restarts(holder) > restarts && ready(holder)));
        healed.add(new Healed(
                "kill -9 the lease holder " + holder + " mid-collect (taken over by " + taker[0] + ")",
                seconds,
                retried.get() - retriedBefore));
    }

    /** Kafka stopped for {@code down} and started again (data kept), a period falling due meanwhile. */
    void restartKafka(Duration down) {
        billPeriod();
        Instant at = Instant.now();
        int retriedBefore = retried.get();
        stack.stopKafka();
        sleep(down);
        stack.startKafka();
        Map<String, Double> seconds = new LinkedHashMap<>();
        seconds.put("broker back", seconds(at));
        healedAfter(at, seconds, Map.of());
        healed.add(new Healed(
                "Kafka stopped " + down.toSeconds() + " s and started", seconds, retried.get() - retriedBefore));
    }

    /** PostgreSQL restarted (every service's connections break), a period falling due just before. */
    void restartPostgres() throws Exception {
        billPeriod();
        Instant at = Instant.now();
        int retriedBefore = retried.get();
        double down = stack.restartPostgres();
        Map<String, Double> seconds = new LinkedHashMap<>();
        seconds.put("database back", down);
        healedAfter(at, seconds, Map.of());
        healed.add(new Healed("PostgreSQL restarted", seconds, retried.get() - retriedBefore));
    }

    /**
     * Waits until the fault healed in every respect, each timed from {@code at} when first seen: {@code own} (the
     * fault's), then what every fault waits for: a link paid after it completed and announced, the due period
     * collected and recorded, and the consumer lag read as zero on every instance (once that payment was announced:
     * a zero read before it may predate the fault's effect).
     */
    private void healedAfter(Instant at, Map<String, Double> seconds, Map<String, BooleanSupplier> own) {
        Map<String, BooleanSupplier> parts = new LinkedHashMap<>(own);
        String payment = "payment after it completed";
        parts.put(
                payment,
                () -> paid.stream()
                        .filter(link -> link.paidAt().isAfter(at))
                        .anyMatch(link -> delivered(link.id(), "payment.completed")));
        parts.put("period collected", this::collected);
        parts.put("consumer lag 0", () -> seconds.containsKey(payment) && noConsumerLag());
        long deadline = System.nanoTime() + HEAL_LIMIT.toNanos();
        while (!seconds.keySet().containsAll(parts.keySet())) {
            parts.forEach((part, healedYet) -> {
                if (!seconds.containsKey(part) && healedYet.getAsBoolean()) {
                    seconds.put(part, seconds(at));
                }
            });
            if (System.nanoTime() > deadline) {
                throw new AssertionError("not healed within " + HEAL_LIMIT + " of the fault: "
                        + parts.keySet().stream()
                                .filter(part -> !seconds.containsKey(part))
                                .toList()
                        + " (healed: " + seconds + ")");
            }
            sleep(Duration.ofMillis(200));
        }
    }

    /** The chain's clock moves a period on: each subscription owes one more, which the keeper collects. */
    private void billPeriod() {
        chain.increaseTime(PERIOD_SECONDS);
        duePeriods++;
    }

    // ---- what the walk reads ----

    boolean delivered(String linkId, String type) {
        return receiver.received().stream()
                .map(delivery -> JSON.readTree(delivery.body()))
                .anyMatch(event -> type.equals(event.get("type").asString())
                        && linkId.equals(event.get("data").get("id").asString()));
    }

    /** Every subscription counts every due period paid (as subscriptions-service recorded them). */
    private boolean collected() {
        return subscriptions.stream().allMatch(subscription -> paidPeriods(subscription) >= duePeriods);
    }

    void awaitCollected(String what) {
        await(what, HEAL_LIMIT, this::collected);
    }

    /** The link's {@code paid_periods} as subscriptions-service recorded them; -1 while no answer comes (a fault). */
    int paidPeriods(Enrolled subscription) {
        try {
            HttpResponse<String> link = api.get("/subscriptions/link/" + subscription.linkId());
            return link.statusCode() == 200
                    ? JSON.readTree(link.body()).get("paid_periods").asInt()
                    : -1;
        } catch (UncheckedIOException brokenConnection) {
            return -1;
        }
    }

    /** A GET's answer, sent again like the load's requests while a fault breaks it. */
    JsonNode read(SignedClient client, String path) {
        return retry("GET " + path, 200, () -> client.get(path));
    }

    /** Both consumer groups' lag, as the instances export it for on-call: zero on every instance that answers. */
    boolean noConsumerLag() {
        List<Double> lags = new ArrayList<>();
        for (String instance : stack.instances("webhook-service")) {
            metric(instance, "webhook_consumer_lag_total_records").ifPresent(lags::add);
        }
        for (String instance : stack.instances("chain-watcher")) {
            metric(instance, "chain_watcher_consumer_lag_total_records").ifPresent(lags::add);
        }
        return !lags.isEmpty() && lags.stream().allMatch(lag -> lag == 0);
    }

    /** The chain-watcher instance whose last pass held the dev chain's lease. */
    String leaseHolder() {
        String[] holder = new String[1];
        await("one chain-watcher holding the lease", Duration.ofSeconds(30), () -> {
            List<String> holding = stack.instances("chain-watcher").stream()
                    .filter(instance -> leaseHeld(instance) == 1.0)
                    .toList();
            holder[0] = holding.size() == 1 ? holding.get(0) : null;
            return holder[0] != null;
        });
        return holder[0];
    }

    private double leaseHeld(String instance) {
        return metric(instance, "chain_watcher_lease_held").orElse(Double.NaN);
    }

    /** A metric's value on an instance (the sum of its series), empty when the instance does not answer. */
    OptionalDouble metric(String instance, String name) {
        return actuator(instance, "prometheus")
                .filter(page -> page.statusCode() == 200)
                .map(page -> page.body()
                        .lines()
                        .filter(line -> line.startsWith(name + " ") || line.startsWith(name + "{"))
                        .mapToDouble(line -> Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1)))
                        .reduce(Double::sum))
                .orElse(OptionalDouble.empty());
    }

    private boolean ready(String instance) {
        return actuator(instance, "health/readiness")
                .filter(health -> health.statusCode() == 200 && health.body().contains("\"UP\""))
                .isPresent();
    }

    /** GET {@code /actuator/<path>} of one instance; empty while it does not answer (killed, or not up yet). */
    private Optional<HttpResponse<String>> actuator(String instance, String path) {
        try {
            return Optional.of(SuiteStack.send(
                    HttpRequest.newBuilder(URI.create(stack.instanceUrl(instance) + "/actuator/" + path))
                            .timeout(Duration.ofSeconds(5))
                            .build()));
        } catch (AssertionError | RuntimeException e) {
            return Optional.empty();
        }
    }

    private static int pendingTransactions(SubscriptionContract contract) {
        Object status = contract.anvil("txpool_status");
        String pending = String.valueOf(((Map<?, ?>) status).get("pending"));
        return pending.startsWith("0x") ? Numeric.toBigInt(pending).intValueExact() : Integer.parseInt(pending);
    }

    // ---- calls ----

    /**
     * Sends until the answer is {@code status}: a 5xx, a 429 or a broken connection is what a fault costs a caller, who
     * sends the same request again (with the same Idempotency-Key); any other answer fails the walk.
     */
    JsonNode retry(String what, int status, Supplier<HttpResponse<String>> call) {
        long deadline = System.nanoTime() + HEAL_LIMIT.toNanos();
        String last = "no answer";
        while (System.nanoTime() < deadline) {
            try {
                HttpResponse<String> response = call.get();
                if (response.statusCode() == status) {
                    return JSON.readTree(response.body());
                }
                last = response.statusCode() + " " + response.body();
                if (response.statusCode() < 500 && response.statusCode() != 429) {
                    throw new AssertionError(what + " answered " + last);
                }
            } catch (UncheckedIOException e) {
                last = e.getMessage();
            }
            retried.incrementAndGet();
            sleep(Duration.ofMillis(250));
        }
        throw new AssertionError(what + " did not succeed within " + HEAL_LIMIT + "; last: " + last);
    }

    private static JsonNode expect(int status, HttpResponse<String> response) {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(status);
        return JSON.readTree(response.body());
    }

    private static double seconds(Instant since) {
        return Duration.between(since, Instant.now()).toMillis() / 1000.0;
    }

    private static double secondsUntil(Instant since, String what, BooleanSupplier condition) {
        await(what, HEAL_LIMIT, condition);
        return seconds(since);
    }

    private static void await(String what, Duration limit, BooleanSupplier condition) {
        SuiteStack.await(what, limit, condition);
    }

    @Override
    public void close() {
        stopping = true;
        load.shutdownNow();
        receiver.close();
    }
}
