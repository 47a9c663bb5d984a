package dev.cryptopay.bench.load;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.ToDoubleFunction;
import java.util.stream.Stream;

/**
 * CPU time used by the local stack's processes, read from {@code /proc} (Linux): user + system time of each service
 * JVM, the launcher (which hosts the Kafka broker), PostgreSQL's backends together, and this driver. Taken before
 * and after a phase, the difference divided by the work done is each part's cost per operation — steadier than
 * throughput on a noisy machine, and it shows where the cores went. Also the time each part's threads spent runnable
 * but waiting for a core ({@code /proc/<pid>/task/<tid>/schedstat}, the scheduler's run-queue wait): what the cores'
 * load adds to a request's latency, which no CPU profile shows.
 */
final class ProcessCpu {

    private static final long TICKS_PER_SECOND = 100; // USER_HZ on Linux

    private ProcessCpu() {}

    /** CPU seconds used so far by each part, by name. Empty when {@code /proc} cannot be read. */
    static Map<String, Double> snapshot() {
        return snapshot(ProcessCpu::cpuSeconds);
    }

    /**
     * Seconds each part's threads have spent so far runnable but waiting for a core, by name (threads that ended
     * meanwhile are not counted; the services' threads live as long as they do).
     */
    static Map<String, Double> runQueueWait() {
        return snapshot(ProcessCpu::runQueueSeconds);
    }

    private static Map<String, Double> snapshot(ToDoubleFunction<Long> measure) {
        Map<String, Double> seconds = new LinkedHashMap<>();
        ProcessHandle.allProcesses()
                .forEach(process -> name(process).ifPresent(name -> {
                    double used = measure.applyAsDouble(process.pid());
                    seconds.merge(name, used, Double::sum);
                }));
        seconds.put(
                "load driver + sink",
                measure.applyAsDouble(ProcessHandle.current().pid()));
        return seconds;
    }

    /** What each part used between two snapshots, in milliseconds per operation. */
    static Map<String, Double> perOperation(Map<String, Double> before, Map<String, Double> after, long operations) {
        Map<String, Double> millis = new LinkedHashMap<>();
        after.forEach((name, used) -> millis.put(name, (used - before.getOrDefault(name, 0.0)) * 1000 / operations));
        return millis;
    }

    private static Optional<String> name(ProcessHandle process) {
        return name(
                process.info().commandLine().orElse(""),
                process.info().command().orElse(""));
    }

    /** The part of the stack a process is, from its command line and executable; empty for anything else. */
    static Optional<String> name(String command, String executable) {
        if (command.contains("/.local/jars/")) {
            // <data dir>/jars/<service>-<12 hex digits of the jar's hash>/...: the service's name alone.
            String image = command.substring(command.indexOf("/.local/jars/") + "/.local/jars/".length())
                    .split("[/ ]", 2)[0];
            return Optional.of(image.replaceFirst("-[0-9a-f]{12}$", ""));
        }
        if (command.contains("deploy") && command.contains("-exec.jar")) {
            return Optional.of("launcher (Kafka broker)");
        }
        if (executable.endsWith("/postgres")) {
            return Optional.of("postgresql (all backends)");
        }
        return Optional.empty();
    }

    /** The run-queue wait of all of the process's threads: the second field of each thread's schedstat, in ns. */
    private static double runQueueSeconds(long pid) {
        try (Stream<Path> tasks = Files.list(Path.of("/proc", Long.toString(pid), "task"))) {
            return tasks.mapToLong(task -> {
                                try {
                                    return Long.parseLong(Files.readString(task.resolve("schedstat"))
                                            .trim()
                                            .split(" ")[1]);
                                } catch (IOException | RuntimeException gone) {
                                    return 0; // the thread ended meanwhile
                                }
                            })
                            .sum()
                    / 1e9;
        } catch (IOException | RuntimeException unreadable) {
            return 0;
        }
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
