package dev.cryptopay.bench.load;

import static org.assertj.core.api.Assertions.assertThat;

import java.security.MessageDigest;
import java.util.Map;
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
}
