package dev.cryptopay.bench.load;

import dev.cryptopay.auth.Mode;
import dev.cryptopay.auth.internal.InternalCallers;
import dev.cryptopay.auth.internal.InternalHeaders;
import dev.cryptopay.auth.internal.InternalRequest;
import dev.cryptopay.auth.internal.InternalTokenSigner;
import dev.cryptopay.auth.internal.MerchantCredential;
import dev.cryptopay.auth.internal.MerchantIdentity;
import dev.cryptopay.auth.keys.Ed25519KeyPairs;
import dev.cryptopay.auth.keys.SigningKey;
import dev.cryptopay.auth.keys.VerificationKey;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import tools.jackson.databind.json.JsonMapper;

/**
 * Load against the running local stack ({@code ./run-local}, started with {@code GATEWAY_RATELIMIT_ENABLED=false}).
 *
 * <pre>
 * java -cp bench/target/benchmarks.jar dev.cryptopay.bench.load.LoadDriver reads   [options]
 * java -cp bench/target/benchmarks.jar dev.cryptopay.bench.load.LoadDriver account [options]
 * </pre>
 *
 * <ul>
 *   <li>{@code reads}: {@code GET /payment_links/{id}} straight to payment-links-service (with the token the gateway
 *       would add) and through the gateway, each at its maximum (closed loop), then both at half the gateway's
 *       maximum (open loop) for the latency the gateway adds ({@code --latency-at 0.5,0.25,0.1} for more rates, as
 *       fractions of that maximum).
 *   <li>{@code pipeline}: creates through the gateway for {@code --merchants} merchants (default 8), each with a
 *       webhook endpoint at a local sink: events delivered per second at the maximum, create → webhook latency at
 *       half of it, duplicates, bad signatures and lost events ({@code --presign-rate}, default 2000/s, bounds how
 *       many creates are signed in advance); then the latency-vs-throughput curve ({@code --curve} fractions of the
 *       maximum, {@code --step-seconds} each, an empty {@code --curve} skips it) and the create transaction's
 *       ceiling from {@code bench/run-pgbench-create} ({@code --pgbench false} skips it). It first runs
 *       {@code bench/vacuum-stack} ({@code --vacuum false} skips it): on a server with autovacuum off, each run
 *       would otherwise start with the dead rows of every run before it.
 *   <li>{@code account}: {@code GET /account} (the gateway alone: signature, key lookup) at its maximum, beside the
 *       raw Ed25519 verifications per second of the same machine measured in the same run.
 * </ul>
 *
 * Options: {@code --seconds N} (measured, default 20), {@code --warmup N} (default 60: a fresh service compiles for minutes), {@code --connections N}
 * (default 16), {@code --stack DIR} (default {@code .local}), {@code --direct URL} (payment-links-service, default
 * {@code http://127.0.0.1:8081}), {@code --out DIR} (results, default {@code bench/target/load}).
 */
public final class LoadDriver {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    final Map<String, String> options;
    final Duration warmup;
    final Duration measure;
    final int connections;
    final Map<String, String> stack;
    private final Map<String, String> secrets;
    final Path out;
    final Map<String, Object> results = new LinkedHashMap<>();

    private LoadDriver(Map<String, String> options) {
        this.options = options;
        this.warmup = Duration.ofSeconds(Long.parseLong(options.getOrDefault("warmup", "60")));
        this.measure = Duration.ofSeconds(Long.parseLong(options.getOrDefault("seconds", "20")));
        this.connections = Integer.parseInt(options.getOrDefault("connections", "16"));
        Path stackDir = Path.of(options.getOrDefault("stack", ".local"));
        this.stack = envFile(stackDir.resolve("stack.env"));
        this.secrets = envFile(stackDir.resolve("secrets.env"));
        this.out = Path.of(options.getOrDefault("out", "bench/target/load"));
    }

    public static void main(String[] args) throws IOException {
        if (args.length == 0) {
            System.err.println(
                    "usage: LoadDriver reads|account|pipeline [--seconds N] [--warmup N] [--connections N] …");
            System.exit(2);
        }
        Map<String, String> options = new LinkedHashMap<>();
        for (int i = 1; i + 1 < args.length; i += 2) {
            options.put(args[i].replaceFirst("^--", ""), args[i + 1]);
        }
        LoadDriver driver = new LoadDriver(options);
        switch (args[0]) {
            case "reads" -> driver.reads();
            case "account" -> driver.account();
            case "pipeline" -> new PipelineScenario(driver).run();
            default -> {
                System.err.println("unknown scenario " + args[0]);
                System.exit(2);
            }
        }
        driver.write(args[0]);
        System.exit(0);
    }

    private BenchMerchant merchant() {
        return BenchMerchant.create(stack.get("ADMIN_URL"), stack.get("ADMIN_TOKEN"), stack.get("BASE_URL"), 16);
    }

    private void reads() {
        BenchMerchant merchant = merchant();
        String id = merchant.call(
                        "POST", "/payment_links", "{\"payment_name\":\"Bench\",\"amount\":10,\"currency\":\"USDC\"}")
                .at("/data/id")
                .asString();
        String path = "/payment_links/" + id;
        String direct = options.getOrDefault("direct", "http://127.0.0.1:8081");
        InternalTokenSigner gatewayToken =
                InternalTokenSigner.parse(InternalCallers.GATEWAY, secrets.get("GATEWAY_INTERNAL_AUTH_PRIVATE_KEY"));
        MerchantIdentity identity = new MerchantIdentity(merchant.merchantId, Mode.TEST);
        InternalRequest internal = InternalRequest.of("GET", path, null, new byte[0]);
        Supplier<HttpLoad.Request> directRead = () -> new HttpLoad.Request(
                "GET",
                direct + path,
                Map.of(
                        InternalHeaders.MERCHANT_ID, identity.merchantId().toString(),
                        InternalHeaders.MERCHANT_MODE, identity.mode().wireName(),
                        InternalHeaders.MERCHANT_CREDENTIAL, MerchantCredential.API_KEY.wireName(),
                        InternalHeaders.INTERNAL_AUTH,
                                gatewayToken.issue(
                                        InternalCallers.PAYMENT_LINKS_SERVICE,
                                        identity,
                                        MerchantCredential.API_KEY,
                                        internal,
                                        Instant.now())),
                new byte[0]);

        HttpLoad load = new HttpLoad(512, 200);
        HttpLoad.Result directMax = report(load.closedLoop("direct, max", directRead, connections, warmup, measure));
        HttpLoad.Result gatewayMax = report(
                load.closedLoop("gateway, max", presigned(merchant, "GET", path, 6_000), connections, warmup, measure));
        double ratio = gatewayMax.perSecond() / directMax.perSecond();
        System.out.printf("%nthrough-gateway reads / direct reads: %.2f×%n", ratio);
        results.put("gateway_to_direct_ratio", ratio);
        // The latency the gateway adds, at fractions of its maximum (--latency-at, default half of it).
        for (String fraction : options.getOrDefault("latency-at", "0.5").split(",")) {
            latencyAdded(load, directRead, merchant, path, gatewayMax.perSecond(), Double.parseDouble(fraction));
        }
        // The same ratio from CPU: what a read costs the machine with and without the gateway in its path.
        double directCost = total(directMax.cpuMillisPerRequest());
        double gatewayCost = total(gatewayMax.cpuMillisPerRequest());
        if (directCost > 0 && gatewayCost > 0) {
            System.out.printf(
                    "CPU per read, whole machine: direct %.3f ms, through the gateway %.3f ms (gateway itself %.3f ms):"
                            + " %.2f× as many reads per core-second%n",
                    directCost,
                    gatewayCost,
                    gatewayMax.cpuMillisPerRequest().getOrDefault("gateway", 0.0),
                    directCost / gatewayCost);
            results.put("cpu_ratio_direct_to_gateway", directCost / gatewayCost);
        }
    }

    private void account() {
        BenchMerchant merchant = merchant();
        double verifies = verifyCeiling(warmup, measure);
        System.out.printf(
                "raw Ed25519 verifications (BouncyCastle, %d threads): %.0f/s%n",
                Runtime.getRuntime().availableProcessors(), verifies);
        HttpLoad load = new HttpLoad(512, 200);
        HttpLoad.Result account = report(load.closedLoop(
                "GET /account, max", presigned(merchant, "GET", "/account", 8_000), connections, warmup, measure));
        double ratio = account.perSecond() / verifies;
        System.out.printf("%nGET /account / raw verifications: %.2f×%n", ratio);
        results.put("raw_verifications_per_second", verifies);
        results.put("account_to_verify_ratio", ratio);
        // What the gateway would reach with the cores to itself: its own CPU per request against a verification's.
        double verifyMillis = Runtime.getRuntime().availableProcessors() * 1000.0 / verifies;
        Double gatewayMillis = account.cpuMillisPerRequest().get("gateway");
        if (gatewayMillis != null && gatewayMillis > 0) {
            System.out.printf(
                    "gateway CPU per GET /account %.3f ms, per raw verification %.3f ms: alone on the cores the gateway"
                            + " would answer %.2f× the raw verifications%n",
                    gatewayMillis, verifyMillis, verifyMillis / gatewayMillis);
            results.put("gateway_cpu_ms_per_request", gatewayMillis);
            results.put("verify_cpu_ms", verifyMillis);
            results.put("account_to_verify_ratio_gateway_alone", verifyMillis / gatewayMillis);
        }
    }

    /**
     * Signs enough distinct requests for a warm-up and a measurement at up to {@code maxPerSecond}; they are handed
     * out in order and never reused.
     */
    private Supplier<HttpLoad.Request> presigned(BenchMerchant merchant, String method, String path, int maxPerSecond) {
        int count = (int) (maxPerSecond * (warmup.toSeconds() + measure.toSeconds()));
        BenchMerchant.Signed requests = merchant.signed(method, path, new byte[0], count);
        AtomicInteger next = new AtomicInteger();
        return () -> {
            int index = next.getAndIncrement();
            if (index >= requests.size()) {
                throw new IllegalStateException(
                        "more than " + requests.size() + " requests: raise the presigned count");
            }
            return requests.get(index);
        };
    }

    static double total(Map<String, Double> cpuMillis) {
        return cpuMillis.values().stream().mapToDouble(Double::doubleValue).sum();
    }

    /**
     * Direct and through-gateway reads at the same fixed rate ({@code fraction} of the gateway's maximum), open loop:
     * the p99 the gateway adds, and how long the stack's threads waited for a core per read meanwhile.
     */
    private void latencyAdded(
            HttpLoad load,
            Supplier<HttpLoad.Request> directRead,
            BenchMerchant merchant,
            String path,
            double gatewayMax,
            double fraction) {
        double rate = gatewayMax * fraction;
        String label = fraction == 0.5 ? "half of gateway max" : String.format("%.2f of gateway max", fraction);
        HttpLoad.Result direct = report(load.openLoop("direct, " + label, directRead, rate, warmup, measure));
        HttpLoad.Result gateway = report(load.openLoop(
                "gateway, " + label, presigned(merchant, "GET", path, (int) rate + 1), rate, warmup, measure));
        double addedP99 = gateway.percentileMillis(99) - direct.percentileMillis(99);
        double gatewayWaited = total(gateway.runQueueWaitMillisPerRequest());
        double directWaited = total(direct.runQueueWaitMillisPerRequest());
        // Latency no CPU profile shows: the time the stack's threads were ready to run but every core was busy.
        System.out.printf(
                "at %.0f reads/s (%s): p99 added by the gateway %.2f ms; the stack's threads waited for a core %.2f"
                        + " ms per read through the gateway (the gateway's own %.2f ms), %.2f ms per direct read%n",
                rate,
                label,
                addedP99,
                gatewayWaited,
                gateway.runQueueWaitMillisPerRequest().getOrDefault("gateway", 0.0),
                directWaited);
        String key = fraction == 0.5 ? "half_load" : "load_" + fraction;
        results.put("p99_added_ms_at_" + key, addedP99);
        results.put("run_queue_wait_ms_per_read_at_" + key + "_gateway", gatewayWaited);
        results.put("run_queue_wait_ms_per_read_at_" + key + "_direct", directWaited);
    }

    /** Ed25519 verifications per second on all cores, the ceiling of an authenticated request on this machine. */
    private static double verifyCeiling(Duration warmup, Duration measure) {
        SigningKey key =
                SigningKey.parse(Ed25519KeyPairs.generate(new SecureRandom()).privateKeyPem());
        VerificationKey verification = key.verificationKey();
        byte[] message = "GET/account2026-11-22T12:00:00.000Z".getBytes(StandardCharsets.UTF_8);
        byte[] signature = key.sign(message);
        int threads = Runtime.getRuntime().availableProcessors();
        AtomicLong done = new AtomicLong();
        long recordFrom = System.nanoTime() + warmup.toNanos();
        long end = recordFrom + measure.toNanos();
        List<Thread> workers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            Thread worker = new Thread(() -> {
                long mine = 0;
                long now;
                while ((now = System.nanoTime()) < end) {
                    if (!verification.verify(message, signature)) {
                        throw new IllegalStateException("signature did not verify");
                    }
                    if (now >= recordFrom) {
                        mine++;
                    }
                }
                done.addAndGet(mine);
            });
            workers.add(worker);
            worker.start();
        }
        for (Thread worker : workers) {
            try {
                worker.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        return done.get() / (measure.toNanos() / 1e9);
    }

    HttpLoad.Result report(HttpLoad.Result result) {
        System.out.println(result);
        if (result.answered() == 0) {
            throw new IllegalStateException(result.name() + ": no expected answer at all (" + result.failed()
                    + " others). Is the stack running, with GATEWAY_RATELIMIT_ENABLED=false?");
        }
        Map<String, Object> figures = new LinkedHashMap<>();
        figures.put("per_second", result.perSecond());
        figures.put("p50_ms", result.percentileMillis(50));
        figures.put("p99_ms", result.percentileMillis(99));
        figures.put("p999_ms", result.percentileMillis(99.9));
        figures.put("failed", result.failed());
        figures.put("cpu_ms_per_request", result.cpuMillisPerRequest());
        figures.put("run_queue_wait_ms_per_request", result.runQueueWaitMillisPerRequest());
        results.put(result.name(), figures);
        printPerProcess("CPU per request", result.cpuMillisPerRequest());
        printPerProcess("waiting for a core per request", result.runQueueWaitMillisPerRequest());
        return result;
    }

    private static void printPerProcess(String what, Map<String, Double> millisPerRequest) {
        if (!millisPerRequest.isEmpty()) {
            StringBuilder line = new StringBuilder("    " + what + ":");
            millisPerRequest.forEach((process, millis) -> {
                if (millis >= 0.005) {
                    line.append(String.format(" %s %.3f ms,", process, millis));
                }
            });
            System.out.println(line.substring(0, line.length() - 1));
        }
    }

    /** A {@code KEY=VALUE} file as the local stack writes them ({@code #} comments, no quoting). */
    private static Map<String, String> envFile(Path file) {
        Properties properties = new Properties();
        try (var reader = Files.newBufferedReader(file)) {
            properties.load(reader);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file + " (is ./run-local running?)", e);
        }
        Map<String, String> values = new LinkedHashMap<>();
        properties.forEach(
                (key, value) -> values.put(key.toString(), value.toString().strip()));
        return values;
    }

    private void write(String scenario) throws IOException {
        Files.createDirectories(out);
        Path file = out.resolve(scenario + ".json");
        Files.writeString(file, JSON.writerWithDefaultPrettyPrinter().writeValueAsString(results));
        System.out.println("results in " + file);
    }
}
