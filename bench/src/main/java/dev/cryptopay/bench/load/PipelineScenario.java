package dev.cryptopay.bench.load;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.HdrHistogram.Histogram;

/** The {@code pipeline} scenario of {@link LoadDriver}: payment-link creates through the gateway → signed webhooks. */
final class PipelineScenario {

    private final LoadDriver driver;

    PipelineScenario(LoadDriver driver) {
        this.driver = driver;
    }

    /**
     * Creates through the gateway for several merchants, each with one webhook endpoint at a local sink subscribed to
     * {@code payment.created}: first a warm-up, then at the maximum (closed loop) until every event arrived, then at
     * half the delivered rate (open loop) for the create → webhook latency.
     */
    void run() throws IOException {
        if (Boolean.parseBoolean(driver.options.getOrDefault("vacuum", "true"))) {
            System.out.println(run("bench/vacuum-stack").strip());
        }
        int merchantCount = Integer.parseInt(driver.options.getOrDefault("merchants", "8"));
        int presignRate = Integer.parseInt(driver.options.getOrDefault("presign-rate", "2000"));
        try (WebhookSink sink = new WebhookSink()) {
            List<BenchMerchant> merchants = new ArrayList<>();
            for (int m = 0; m < merchantCount; m++) {
                BenchMerchant merchant = BenchMerchant.create(
                        driver.stack.get("ADMIN_URL"),
                        driver.stack.get("ADMIN_TOKEN"),
                        driver.stack.get("BASE_URL"),
                        4);
                String name = "m" + m;
                String secret = merchant.call(
                                "POST",
                                "/webhook-endpoints",
                                "{\"url\":\"" + sink.url(name) + "\",\"events\":[\"payment.created\"]}")
                        .at("/data/secret")
                        .asString();
                sink.secret(name, secret);
                merchants.add(merchant);
            }
            HttpLoad load = new HttpLoad(512, 201);
            CreatePhase warm = new CreatePhase(sink, merchants, "w", presignRate * (int) driver.warmup.toSeconds());
            load.closedLoop("creates, warm-up", warm, driver.connections, Duration.ZERO, driver.warmup);
            warm.awaitDelivered(Duration.ofSeconds(60));

            CreatePhase max = new CreatePhase(sink, merchants, "m", presignRate * (int) driver.measure.toSeconds());
            Map<String, Double> cpuBefore = ProcessCpu.snapshot();
            long start = System.nanoTime();
            HttpLoad.Result creates = driver.report(
                    load.closedLoop("creates, max", max, driver.connections, Duration.ZERO, driver.measure));
            long createsEnd = System.nanoTime();
            max.awaitDelivered(Duration.ofSeconds(120));
            long delivered = max.phase.delivered.get();
            double eventsPerSecond = delivered / ((max.phase.lastArrivalNanos.get() - start) / 1e9);
            double drainSeconds = Math.max(0, (max.phase.lastArrivalNanos.get() - createsEnd) / 1e9);
            System.out.printf(
                    "events delivered: %d of %d created, %.0f events/s from the first create to the last webhook"
                            + " (the last arrived %.1f s after the creates stopped)%n",
                    delivered, max.created(), eventsPerSecond, drainSeconds);
            Map<String, Double> cpuPerEvent = ProcessCpu.perOperation(cpuBefore, ProcessCpu.snapshot(), delivered);
            System.out.println("CPU per create (and its webhook), whole phase:");
            cpuPerEvent.forEach((name, millis) -> System.out.printf("  %-28s %6.2f ms%n", name, millis));
            System.out.printf("  %-28s %6.2f ms%n", "total", LoadDriver.total(cpuPerEvent));
            driver.results.put("max_cpu_ms_per_event", cpuPerEvent);
            driver.results.put("max_events_per_second", eventsPerSecond);
            driver.results.put("max_drain_seconds", drainSeconds);

            double half = Math.min(eventsPerSecond, creates.perSecond()) / 2;
            CreatePhase halfPhase =
                    new CreatePhase(sink, merchants, "h", (int) (half * driver.measure.toSeconds()) + 1);
            driver.report(load.openLoop("creates, half of max", halfPhase, half, Duration.ZERO, driver.measure));
            halfPhase.awaitDelivered(Duration.ofSeconds(60));
            Histogram latency = halfPhase.phase.latencyMicros;
            System.out.printf(
                    "create → webhook answered at %.0f creates/s: p50 %.1f ms, p99 %.1f ms, p99.9 %.1f ms%n",
                    half,
                    latency.getValueAtPercentile(50) / 1000.0,
                    latency.getValueAtPercentile(99) / 1000.0,
                    latency.getValueAtPercentile(99.9) / 1000.0);
            driver.results.put("half_rate_per_second", half);
            driver.results.put("half_create_to_webhook_p50_ms", latency.getValueAtPercentile(50) / 1000.0);
            driver.results.put("half_create_to_webhook_p99_ms", latency.getValueAtPercentile(99) / 1000.0);
            driver.results.put("half_create_to_webhook_p999_ms", latency.getValueAtPercentile(99.9) / 1000.0);

            List<CreatePhase> phases = new ArrayList<>(List.of(warm, max, halfPhase));
            String[] fractions = driver.options
                    .getOrDefault("curve", "0.1,0.25,0.4,0.55,0.7,0.85,1.0,1.15")
                    .split(",");
            if (!fractions[0].isBlank()) {
                phases.addAll(curve(sink, merchants, load, creates.perSecond(), fractions));
            }
            if (Boolean.parseBoolean(driver.options.getOrDefault("pgbench", "true"))) {
                double ceiling = pgbenchCreateCeiling();
                double ratio = creates.perSecond() / ceiling;
                System.out.printf(
                        "create transaction ceiling (pgbench, 32 clients): %.0f/s; creates through the gateway / "
                                + "ceiling: %.3f×%n",
                        ceiling, ratio);
                driver.results.put("pgbench_create_tps", ceiling);
                driver.results.put("creates_to_pgbench_ratio", ratio);
            }

            long lost = phases.stream().mapToLong(CreatePhase::lost).sum();
            System.out.printf(
                    "duplicates %d, bad signatures %d, lost (created, never delivered) %d, unexpected %d%n",
                    sink.duplicates(), sink.badSignatures(), lost, sink.unknown());
            driver.results.put("duplicates", sink.duplicates());
            driver.results.put("bad_signatures", sink.badSignatures());
            driver.results.put("lost", lost);
        }
    }

    /**
     * Creates at rising fractions of the maximum, {@code --step-seconds} each (default 10), open loop: the create's
     * and the webhook's latency at each rate, written as {@code pipeline-curve.csv} and plotted as
     * {@code pipeline-curve.png}.
     */
    private List<CreatePhase> curve(
            WebhookSink sink, List<BenchMerchant> merchants, HttpLoad load, double maxPerSecond, String[] fractions)
            throws IOException {
        Duration step = Duration.ofSeconds(Long.parseLong(driver.options.getOrDefault("step-seconds", "10")));
        LatencyCurve curve = new LatencyCurve();
        List<CreatePhase> phases = new ArrayList<>();
        for (int i = 0; i < fractions.length; i++) {
            double rate = maxPerSecond * Double.parseDouble(fractions[i].strip());
            CreatePhase phase = new CreatePhase(sink, merchants, "c" + i, (int) (rate * step.toSeconds()) + 1);
            HttpLoad.Result result = driver.report(
                    load.openLoop(String.format("creates at %.0f/s", rate), phase, rate, Duration.ZERO, step));
            phase.awaitDelivered(Duration.ofSeconds(30));
            Histogram webhook = phase.phase.latencyMicros;
            curve.add(new LatencyCurve.Point(
                    rate,
                    result.perSecond(),
                    result.percentileMillis(50),
                    result.percentileMillis(99),
                    webhook.getValueAtPercentile(50) / 1000.0,
                    webhook.getValueAtPercentile(99) / 1000.0));
            phases.add(phase);
        }
        curve.writeCsv(driver.out.resolve("pipeline-curve.csv"));
        curve.writePng(
                driver.out.resolve("pipeline-curve.png"),
                String.format(
                        "Payment-link creates through the gateway → webhooks (max %.0f/s closed loop)", maxPerSecond));
        driver.results.put("curve", curve.points());
        System.out.println("curve in " + driver.out.resolve("pipeline-curve.csv") + " and pipeline-curve.png");
        return phases;
    }

    /** Transactions per second of {@code bench/run-pgbench-create} (the create's own transaction, 32 clients). */
    private double pgbenchCreateCeiling() throws IOException {
        String output = run("bench/run-pgbench-create", Long.toString(driver.measure.toSeconds()), "32");
        Matcher tps = Pattern.compile("tps = ([0-9.]+)").matcher(output);
        if (!tps.find()) {
            throw new IllegalStateException("no tps in pgbench's output:\n" + output);
        }
        return Double.parseDouble(tps.group(1));
    }

    /** Runs one of bench/'s scripts to its end; answers what it printed, or fails with it. */
    private static String run(String... command) throws IOException {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        try {
            if (process.waitFor() != 0) {
                throw new IllegalStateException(command[0] + " failed:\n" + output);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        return output;
    }
}
