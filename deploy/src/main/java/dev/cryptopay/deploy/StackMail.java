package dev.cryptopay.deploy;

import com.icegreen.greenmail.util.GreenMail;
import com.icegreen.greenmail.util.ServerSetup;
import jakarta.mail.MessagingException;
import jakarta.mail.internet.MimeMessage;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The stack's SMTP server: GreenMail in this JVM on 127.0.0.1 (as the Kafka broker is), accepting every message
 * without authentication. Each message received is saved as {@code <data dir>/mail/<n>.eml} (numbered on from the
 * files already there), where {@code ./dev-mail} reads them; the messages outlive the launcher, GreenMail's memory
 * does not.
 */
final class StackMail implements AutoCloseable {

    private static final long SAVE_INTERVAL_MS = 250;

    private final GreenMail server;
    private final Path dir;
    private final ScheduledExecutorService saver;
    /** How many of GreenMail's received messages are saved; the next file's number is {@code firstNumber + saved}. */
    private int saved;

    private final int firstNumber;

    private StackMail(GreenMail server, Path dir, int firstNumber) {
        this.server = server;
        this.dir = dir;
        this.firstNumber = firstNumber;
        this.saver = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "stack-mail-saver");
            thread.setDaemon(true);
            return thread;
        });
        saver.scheduleWithFixedDelay(this::saveNew, SAVE_INTERVAL_MS, SAVE_INTERVAL_MS, TimeUnit.MILLISECONDS);
    }

    static StackMail start(StackFiles files, int port, StackConsole console) {
        try {
            Files.createDirectories(files.mailDir);
            GreenMail server = new GreenMail(new ServerSetup(port, "127.0.0.1", ServerSetup.PROTOCOL_SMTP));
            server.start();
            console.say("SMTP (GreenMail) ready at 127.0.0.1:" + port + "; e-mails the suite sends are kept in "
                    + StackConsole.path(files.mailDir) + " (read them with ./dev-mail)");
            return new StackMail(server, files.mailDir, nextNumber(files.mailDir));
        } catch (IOException | RuntimeException e) {
            throw new StackStartException(
                    "The SMTP server did not start on 127.0.0.1:" + port + ": " + StackStartException.rootCause(e)
                            + ". If the port is taken, free it or set STACK_SMTP_PORT.",
                    e);
        }
    }

    /** The number after the highest {@code <n>.eml} in the directory (1 when there is none). */
    static int nextNumber(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.map(file -> file.getFileName().toString())
                            .filter(name -> name.matches("\\d+\\.eml"))
                            .mapToInt(name -> Integer.parseInt(name.substring(0, name.length() - 4)))
                            .max()
                            .orElse(0)
                    + 1;
        }
    }

    private synchronized void saveNew() {
        MimeMessage[] received = server.getReceivedMessages();
        while (saved < received.length) {
            Path file = dir.resolve((firstNumber + saved) + ".eml");
            try (OutputStream out = Files.newOutputStream(file)) {
                received[saved].writeTo(out);
            } catch (IOException | MessagingException e) {
                System.err.println("[stack] could not save an e-mail to " + file + ": " + e);
            }
            saved++;
        }
    }

    @Override
    public void close() {
        saver.shutdown();
        try {
            saver.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        saveNew(); // what arrived since the last pass
        server.stop();
    }
}
