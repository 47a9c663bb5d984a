package dev.cryptopay.deploy;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.function.Function;

/**
 * The service processes of one stack run, each instance by its name ({@code payment-links-service}, and
 * {@code payment-links-service-2} when the stack runs two of each): starting them, restarting a crashed one through
 * its {@link ServiceSupervisor}, killing, stopping and starting one on purpose, and stopping them all.
 *
 * <p>One monitor guards the processes and the closed flag, so that {@link #close()} either stops a run that a start
 * or a restart began, or no start or restart begins any more.
 */
final class StackServices {

    final StackOptions options;
    final StackConsole console;
    final ExecutorService executor;
    private final StackFiles files;
    private final Map<String, ServiceProcess> processes = new LinkedHashMap<>();
    private final Map<String, ServiceSupervisor> supervisors = new LinkedHashMap<>();
    private final List<ServiceBalancer> balancers = new CopyOnWriteArrayList<>();
    private volatile boolean closed;

    StackServices(StackOptions options, StackFiles files, StackConsole console, ExecutorService executor) {
        this.options = options;
        this.files = files;
        this.console = console;
        this.executor = executor;
    }

    /** With more than one instance of each service: each service's address, handing connections to its instances. */
    void startBalancers(Ports ports) {
        for (StackPort port : StackPort.values()) {
            if (!ports.instancePorts(port).isEmpty()) {
                balancers.add(ServiceBalancer.start(port.label, ports.port(port), ports.instancePorts(port), executor));
            }
        }
    }

    /**
     * For each service you run yourself ({@code STACK_SKIP}): writes its settings to {@code <data dir>/<service>.env}
     * and says how to start it (chain-watcher only when the dev chain runs).
     */
    void describeRunByYou(Ports ports, boolean runsDevChain, Function<StackService, Map<String, String>> environment) {
        for (StackService service : options.skipped) {
            if (service != StackService.CHAIN_WATCHER || runsDevChain) {
                Path env = files.root.resolve(service + ".env");
                EnvFile.write(env, environment.apply(service));
                String shown = StackConsole.path(env);
                console.say(service + " is yours to run (STACK_SKIP) on port "
                        + ports.port(StackPort.of(service)) + ", with the settings in " + shown + ": set -a; . "
                        + shown + "; set +a; ./mvnw -pl " + service + " spring-boot:run");
            }
        }
    }

    /** Waits until every future succeeded, or until the first one fails (its exception comes out as is). */
    static void awaitAll(List<CompletableFuture<Void>> futures) {
        CompletableFuture<Void> firstFailure = new CompletableFuture<>();
        futures.forEach(future -> future.whenComplete((done, failure) -> {
            if (failure != null) {
                firstFailure.completeExceptionally(failure);
            }
        }));
        CompletableFuture.anyOf(CompletableFuture.allOf(futures.toArray(CompletableFuture[]::new)), firstFailure)
                .join();
    }

    /** Starts the instance and waits until it is ready; its pid goes to {@code services.pid} at once. */
    void launch(ServiceProcess process, boolean freshLog) {
        synchronized (this) {
            if (closed) {
                throw new StackStartException("start abandoned: the stack is stopping");
            }
            processes.put(process.name, process);
            startRecorded(process, freshLog);
        }
        double seconds = process.awaitReady(options.readyTimeout, this::isClosed);
        console.say(String.format("%s ready in %.1f s (port %d)", process.name, seconds, process.port));
    }

    /** From now on a crash of every running instance is restarted: the stack's start is done. */
    synchronized void superviseAll() {
        processes.values().forEach(process -> supervise(process, true));
    }

    /** From now on a crash of the running instance is restarted (a start on purpose forgets earlier crashes). */
    synchronized void supervise(ServiceProcess process, boolean onPurpose) {
        supervisors
                .computeIfAbsent(process.name, name -> new ServiceSupervisor(process, this))
                .watch(onPurpose);
    }

    /**
     * A supervisor's restart: starts the instance again (log appended) unless the stack is closing or the instance
     * was stopped or started on purpose since the run {@code crashed}; true when it started.
     */
    synchronized boolean restart(ServiceProcess process, Process crashed) {
        if (closed || process.stopRequested() || process.process != crashed) {
            return false;
        }
        startRecorded(process, false);
        return true;
    }

    private void startRecorded(ServiceProcess process, boolean freshLog) {
        process.start(freshLog);
        // services.pid names every running service, so a start after this launcher is killed stops them.
        files.recordServices(
                processes.values().stream().map(started -> started.process).toList());
    }

    /** Kills an instance at once (SIGKILL); asked for, so it stays down until {@link #start}. */
    void kill(String name) {
        process(name).stop(true);
    }

    /** SIGKILLs an instance without asking it to stop: a crash, which its supervisor restarts. */
    void crash(String name) {
        process(name).process.destroyForcibly();
    }

    /** Stops an instance gracefully; it stays down until {@link #start}. */
    void stop(String name) {
        process(name).stop(false);
    }

    /** Starts a stopped or killed instance again on its port, waits until it is ready, and supervises it again. */
    void start(String name) {
        ServiceProcess process = process(name);
        launch(process, false);
        supervise(process, true);
    }

    boolean isRunning(String name) {
        return process(name).isRunning();
    }

    synchronized int restarts(String name) {
        ServiceSupervisor supervisor = supervisors.get(name);
        return supervisor == null ? 0 : supervisor.restarts();
    }

    synchronized ServiceProcess process(String name) {
        ServiceProcess process = processes.get(name);
        if (process == null) {
            StackService service = StackService.byName(name.replaceFirst("-[0-9]+$", ""));
            throw new IllegalStateException("the stack has not started " + name
                    + (options.skipped.contains(service) ? " (skipped: you run it yourself)" : ""));
        }
        return process;
    }

    boolean isClosed() {
        return closed;
    }

    /**
     * Stops every instance (SIGTERM, all at once; SIGKILL after the grace), then closes the services' addresses; no
     * start or restart begins from now on.
     */
    void close() {
        List<ServiceProcess> started;
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            started = new ArrayList<>(processes.values());
        }
        List<String> recording = started.stream()
                .filter(process -> process.isRunning() && process.recording != null)
                .map(process -> process.name)
                .toList();
        if (!recording.isEmpty()) {
            console.say(String.join(", ", recording) + " write their class-data archives as they stop (once per "
                    + "build: later starts are faster)…");
        }
        started.stream()
                .map(process -> CompletableFuture.runAsync(() -> process.stop(false), executor))
                .toList()
                .forEach(stopping -> {
                    try {
                        stopping.join();
                    } catch (RuntimeException e) {
                        System.err.println("[stack] " + e.getMessage()); // worth a line, not worth stopping for
                    }
                });
        balancers.forEach(ServiceBalancer::close);
    }
}
