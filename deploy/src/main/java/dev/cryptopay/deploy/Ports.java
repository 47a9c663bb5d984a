package dev.cryptopay.deploy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/** Free-port lookup, "is this port free" and "who holds it" (Linux {@code /proc}; elsewhere unknown). */
final class Ports {

    /** A process listening on a port, as far as this user may see it. */
    record Holder(long pid, String commandLine) {}

    private Ports() {}

    /** A port free on every local address right now (the OS's choice). */
    static int freePort() {
        try (ServerSocket socket = new ServerSocket()) {
            socket.bind(new InetSocketAddress(0));
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot find a free local port", e);
        }
    }

    /**
     * Whether a server could listen on the port: binds it on the wildcard address, which fails when anything listens
     * on that port on any local address (a service binds the wildcard; Kafka and PostgreSQL bind 127.0.0.1).
     */
    static boolean isFree(int port) {
        try (ServerSocket socket = new ServerSocket()) {
            socket.setReuseAddress(true);
            socket.bind(new InetSocketAddress(port));
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /** Whether something accepts TCP connections at host:port within the timeout. */
    static boolean accepts(String host, int port, int timeoutMillis) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(host, port), timeoutMillis);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /** The process listening on the port, when {@code /proc} tells (Linux, and only this user's processes). */
    static Optional<Holder> holder(int port) {
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
                            return Optional.of(new Holder(pid, commandLine(pid)));
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

    static String commandLine(long pid) {
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
