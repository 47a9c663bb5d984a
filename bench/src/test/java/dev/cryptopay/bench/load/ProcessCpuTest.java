package dev.cryptopay.bench.load;

import static org.assertj.core.api.Assertions.assertThat;

import java.security.MessageDigest;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

/** CPU accounting reads this process's own time from /proc and turns a difference into a cost per operation. */
class ProcessCpuTest {

    @Test
    void theDriversOwnWorkShowsAsCpuPerOperation() throws Exception {
        Map<String, Double> before = ProcessCpu.snapshot();
        MessageDigest sha = MessageDigest.getInstance("SHA-256");
        byte[] data = new byte[1 << 16];
        long end = System.nanoTime() + 300_000_000L;
        while (System.nanoTime() < end) {
            data = sha.digest(data.length == 32 ? new byte[1 << 16] : data);
        }
        Map<String, Double> perOperation = ProcessCpu.perOperation(before, ProcessCpu.snapshot(), 10);

        // 0.3 s of busy work on this thread: at least 0.1 s of CPU, so at least 10 ms per operation.
        assertThat(perOperation.get("load driver + sink")).isGreaterThanOrEqualTo(10.0);
    }

    @Test
    void threadsThatWaitForACoreShowAsRunQueueWait() throws Exception {
        Map<Long, ProcessCpu.ThreadWait> before = ProcessCpu.runQueueWait();
        // Twice as many busy threads as cores for 0.3 s: each is runnable all along and gets a core about half the
        // time. They stay alive (parked) until measured: /proc lists living threads only.
        int threads = 2 * Runtime.getRuntime().availableProcessors();
        CountDownLatch spun = new CountDownLatch(threads);
        CountDownLatch measured = new CountDownLatch(1);
        for (int i = 0; i < threads; i++) {
            Thread thread = new Thread(() -> {
                long end = System.nanoTime() + 300_000_000L;
                while (System.nanoTime() < end) {
                    Thread.onSpinWait();
                }
                spun.countDown();
                try {
                    measured.await();
                } catch (InterruptedException stop) {
                    Thread.currentThread().interrupt();
                }
            });
            thread.setDaemon(true);
            thread.start();
        }
        spun.await();
        Map<String, Double> waited = ProcessCpu.waitPerOperation(before, ProcessCpu.runQueueWait(), 1);
        measured.countDown();

        // Together the threads waited about threads × 0.15 s; a tenth of that is far above scheduling noise.
        assertThat(waited.get("load driver + sink")).isGreaterThan(threads * 15.0);
    }

    @Test
    void aThreadThatEndedDropsOutAndANewOneCountsFromZero() {
        Map<Long, ProcessCpu.ThreadWait> before = Map.of(
                1L, new ProcessCpu.ThreadWait("gateway", 5_000_000),
                2L, new ProcessCpu.ThreadWait("gateway", 9_000_000));
        Map<Long, ProcessCpu.ThreadWait> after = Map.of(
                1L, new ProcessCpu.ThreadWait("gateway", 7_000_000), // waited 2 ms more
                3L, new ProcessCpu.ThreadWait("gateway", 1_000_000)); // new: 1 ms; thread 2 ended

        assertThat(ProcessCpu.waitPerOperation(before, after, 1)).containsEntry("gateway", 3.0);
    }

    @Test
    void servicesAreNamedWithoutTheirImagesHash() {
        assertThat(ProcessCpu.name(
                        "/usr/bin/java -Xmx512m -cp /work/main/.local/jars/payment-links-service-bc5d34f18da4/classes:"
                                + "/work/main/.local/jars/payment-links-service-bc5d34f18da4/lib/a.jar dev.Main",
                        "/usr/bin/java"))
                .contains("payment-links-service");
        assertThat(ProcessCpu.name("java -jar /x/.local/jars/gateway-c48190e5b1a4/gateway.jar", "/usr/bin/java"))
                .contains("gateway");
        assertThat(ProcessCpu.name("java -jar deploy/target/deploy-0.1.0-SNAPSHOT-exec.jar", "/usr/bin/java"))
                .contains("launcher (Kafka broker)");
        assertThat(ProcessCpu.name("postgres: main", "/usr/lib/postgresql/15/bin/postgres"))
                .contains("postgresql (all backends)");
        assertThat(ProcessCpu.name("/usr/bin/bash", "/usr/bin/bash")).isEmpty();
    }
}
