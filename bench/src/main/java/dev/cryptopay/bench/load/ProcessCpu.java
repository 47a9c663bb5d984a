package dev.cryptopay.bench.load;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
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
        Map<String, Double> seconds = new LinkedHashMap<>();
        parts().forEach((pid, name) -> seconds.merge(name, cpuSeconds(pid), Double::sum));
        return seconds;
    }

    /** One living thread of the stack: the part it belongs to and its run-queue wait so far, in ns. */
    record ThreadWait(String part, long nanos) {}

    /** Every living thread of the stack's parts, by thread id. */
    static Map<Long, ThreadWait> runQueueWait() {
        Map<Long, ThreadWait> threads = new HashMap<>();
        parts().forEach((pid, name) -> readWaits(pid, name, threads));
        return threads;
    }

    /** The stack's processes and this driver, each with the part it is, by pid. */
    private static Map<Long, String> parts() {
        Map<Long, String> parts = new LinkedHashMap<>();
        ProcessHandle.allProcesses()
                .forEach(process -> name(process).ifPresent(name -> parts.put(process.pid(), name)));
        parts.put(ProcessHandle.current().pid(), "load driver + sink");
        return parts;
    }

    /**
     * What each part's threads waited for a core between two snapshots, in milliseconds per operation. A thread
     * started meanwhile counts from zero; one that ended meanwhile is no longer listed and drops out (the services'
     * threads live as long as they do).
     */
    static Map<String, Double> waitPerOperation(
            Map<Long, ThreadWait> before, Map<Long, ThreadWait> after, long operations) {
        Map<String, Double> millis = new LinkedHashMap<>();
        after.forEach((thread, now) -> {
            ThreadWait then = before.get(thread);
            boolean same = then != null && then.part().equals(now.part()) && then.nanos() <= now.nanos();
            long waited = now.nanos() - (same ? then.nanos() : 0);
            millis.merge(now.part(), waited / 1e6 / operations, Double::sum);
        });
        return millis;
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

    /** Each thread's run-queue wait: the second field of /proc/<pid>/task/<tid>/schedstat, in ns. */
    private static void readWaits(long pid, String part, Map<Long, ThreadWait> threads) {
        try (Stream<Path> tasks = Files.list(Path.of("/proc", Long.toString(pid), "task"))) {
            tasks.forEach(task -> {
                try {
                    long nanos = Long.parseLong(
                            Files.readString(task.resolve("schedstat")).trim().split(" ")[1]);
                    threads.put(Long.parseLong(task.getFileName().toString()), new ThreadWait(part, nanos));
                } catch (IOException | RuntimeException gone) {
                    // the thread ended meanwhile
                }
            });
        } catch (IOException | RuntimeException unreadable) {
            // the process ended, or /proc is not there
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
