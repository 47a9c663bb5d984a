package dev.cryptopay.bench.load;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * CPU time used by the local stack's processes, read from {@code /proc} (Linux): user + system time of each service
 * JVM, the launcher (which hosts the Kafka broker), PostgreSQL's backends together, and this driver. Taken before
 * and after a phase, the difference divided by the work done is each part's cost per operation — steadier than
 * throughput on a noisy machine, and it shows where the cores went.
 */
final class ProcessCpu {

    private static final long TICKS_PER_SECOND = 100; // USER_HZ on Linux

    private ProcessCpu() {}

    /** CPU seconds used so far by each part, by name. Empty when {@code /proc} cannot be read. */
    static Map<String, Double> snapshot() {
        Map<String, Double> seconds = new LinkedHashMap<>();
        ProcessHandle.allProcesses()
                .forEach(process -> name(process).ifPresent(name -> {
                    double used = cpuSeconds(process.pid());
                    seconds.merge(name, used, Double::sum);
                }));
        seconds.put("load driver + sink", cpuSeconds(ProcessHandle.current().pid()));
        return seconds;
    }

    /** What each part used between two snapshots, in milliseconds per operation. */
    static Map<String, Double> perOperation(Map<String, Double> before, Map<String, Double> after, long operations) {
        Map<String, Double> millis = new LinkedHashMap<>();
        after.forEach((name, used) -> millis.put(name, (used - before.getOrDefault(name, 0.0)) * 1000 / operations));
        return millis;
    }

    private static Optional<String> name(ProcessHandle process) {
        String command = process.info().commandLine().orElse("");
        if (command.contains("/.local/jars/")) {
            String jar = command.substring(command.indexOf("/.local/jars/") + "/.local/jars/".length());
            return Optional.of(jar.replaceFirst("-\\d.*", ""));
        }
        if (command.contains("deploy") && command.contains("-exec.jar")) {
            return Optional.of("launcher (Kafka broker)");
        }
        if (process.info().command().orElse("").endsWith("/postgres")) {
            return Optional.of("postgresql (all backends)");
        }
        return Optional.empty();
    }

    private static double cpuSeconds(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
            // The command name (field 2) may hold spaces; the fields after its closing parenthesis do not.
            String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            long user = Long.parseLong(fields[11]);
            long system = Long.parseLong(fields[12]);
            return (user + system) / (double) TICKS_PER_SECOND;
        } catch (IOException | RuntimeException unreadable) {
            return 0;
        }
    }
}
