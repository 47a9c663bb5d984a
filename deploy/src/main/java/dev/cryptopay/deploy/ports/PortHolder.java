package dev.cryptopay.deploy.ports;

import dev.cryptopay.deploy.LocalStack;
import dev.cryptopay.deploy.StackService;
import dev.cryptopay.deploy.process.ParentWatchAgent;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * A process listening on a port, as far as this user may see it, and what it is to the stack: a launcher, a service
 * of a launcher, or something else.
 */
record PortHolder(long pid, String commandLine) {

    /** What every service JVM's command line carries, followed by its launcher's pid. */
    private static final String AGENT_MARK = ParentWatchAgent.JAR_NAME + "=";

    /** The process listening on the port, when {@code /proc} tells (Linux, and only this user's processes). */
    static Optional<PortHolder> of(int port) {
        Set<String> inodes = listeningSocketInodes(port);
        if (inodes.isEmpty()) {
            return Optional.empty();
        }
        try (DirectoryStream<Path> processes = Files.newDirectoryStream(Path.of("/proc"), "[0-9]*")) {
            for (Path process : processes) {
                try (DirectoryStream<Path> fds = Files.newDirectoryStream(process.resolve("fd"))) {
                    for (Path fd : fds) {
                        String target = Files.readSymbolicLink(fd).toString();
                        if (target.startsWith("socket:[")
                                && inodes.contains(target.substring(8, target.length() - 1))) {
                            long pid = Long.parseLong(process.getFileName().toString());
                            return Optional.of(new PortHolder(pid, commandLineOf(pid)));
                        }
                    }
                } catch (IOException | RuntimeException e) {
                    // another user's process or gone meanwhile
                }
            }
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
        return Optional.empty();
    }

    /** Whether it is a service some launcher started (it carries the parent-watch agent). */
    boolean isStackService() {
        return commandLine.contains(AGENT_MARK);
    }

    /** The launcher it belongs to: its parent-watch agent's argument, or itself if it is a launcher. */
    Optional<Long> launcherPid() {
        int at = commandLine.indexOf(AGENT_MARK);
        if (at >= 0) {
            int start = at + AGENT_MARK.length();
            int end = commandLine.indexOf(' ', start);
            try {
                return Optional.of(
                        Long.parseLong(end < 0 ? commandLine.substring(start) : commandLine.substring(start, end)));
            } catch (NumberFormatException e) {
                return Optional.empty();
            }
        }
        if (commandLine.contains("deploy-" + StackService.VERSION)
                || commandLine.contains(LocalStack.class.getName())) {
            return Optional.of(pid);
        }
        return Optional.empty();
    }

    /** "pid 123 (java … -jar gateway-0.1.0-SNAPSHOT.jar)": short enough to read, with what identifies it. */
    String describe() {
        String[] words = commandLine.split(" ");
        String program = Path.of(words[0]).getFileName().toString();
        int jar = commandLine.indexOf(" -jar ");
        String shown;
        if (jar >= 0) {
            String jarPath = commandLine.substring(jar + 6).split(" ")[0];
            shown = program + " … -jar " + jarPath;
        } else {
            shown = commandLine.length() > 110 ? commandLine.substring(0, 110) + "…" : commandLine;
        }
        return "pid " + pid + " (" + shown + ")";
    }

    /** Inodes of the sockets listening on the port, from {@code /proc/net/tcp} and {@code tcp6}. */
    private static Set<String> listeningSocketInodes(int port) {
        Set<String> inodes = new HashSet<>();
        for (String table : List.of("/proc/net/tcp", "/proc/net/tcp6")) {
            try {
                for (String line : Files.readAllLines(Path.of(table))) {
                    String[] f = line.trim().split("\\s+");
                    // sl local_address rem_address st tx_queue:rx_queue tr:tm->when retrnsmt uid timeout inode
                    if (f.length < 10 || !f[3].equals("0A")) {
                        continue;
                    }
                    int colon = f[1].lastIndexOf(':');
                    if (colon > 0 && Integer.parseInt(f[1].substring(colon + 1), 16) == port) {
                        inodes.add(f[9]);
                    }
                }
            } catch (IOException | RuntimeException e) {
                // not Linux, or not readable: the holder stays unknown
            }
        }
        return inodes;
    }

    private static String commandLineOf(long pid) {
        try {
            byte[] raw = Files.readAllBytes(Path.of("/proc", String.valueOf(pid), "cmdline"));
            String text =
                    new String(raw, StandardCharsets.UTF_8).replace('\0', ' ').trim();
            return text.isEmpty() ? "?" : text;
        } catch (IOException | RuntimeException e) {
            return ProcessHandle.of(pid).flatMap(h -> h.info().commandLine()).orElse("?");
        }
    }
}
