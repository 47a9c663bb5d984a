package dev.cryptopay.testsupport.mail;

import com.icegreen.greenmail.store.FolderException;
import com.icegreen.greenmail.store.StoredMessage;
import com.icegreen.greenmail.user.GreenMailUser;
import com.icegreen.greenmail.util.GreenMail;
import com.icegreen.greenmail.util.ServerSetup;
import jakarta.mail.internet.MimeMessage;
import java.time.Duration;
import java.util.List;
import org.springframework.test.context.DynamicPropertyRegistry;

/**
 * A real SMTP server (GreenMail) in this JVM, started once on a free loopback port and shared by every test of the JVM,
 * as {@code TestKafka} shares its broker. It accepts every message without authentication and keeps it; tests read
 * what was sent to a recipient (use a fresh address per test, so tests never see each other's mail).
 */
public final class TestMail {

    private static GreenMail server;

    private TestMail() {}

    /** The running server (started on first use; stopped when the JVM exits). */
    public static synchronized GreenMail server() {
        if (server == null) {
            GreenMail started = new GreenMail(new ServerSetup(0, "127.0.0.1", ServerSetup.PROTOCOL_SMTP).dynamicPort());
            started.start();
            Runtime.getRuntime().addShutdownHook(new Thread(started::stop, "test-mail-stop"));
            server = started;
        }
        return server;
    }

    /** The port SMTP clients connect to on 127.0.0.1. */
    public static int smtpPort() {
        return server().getSmtp().getPort();
    }

    /** Points Spring Boot's mail sender ({@code spring.mail.*}) at this server. */
    public static void registerSpringProperties(DynamicPropertyRegistry registry) {
        registry.add("spring.mail.host", () -> "127.0.0.1");
        registry.add("spring.mail.port", TestMail::smtpPort);
    }

    /**
     * Every message delivered so far to {@code recipient}'s mailbox (as the SMTP envelope named it: To, Cc and Bcc
     * alike), in arrival order; empty when nothing was.
     */
    public static List<MimeMessage> to(String recipient) {
        GreenMail running = server();
        GreenMailUser user = running.getUserManager().getUserByEmail(recipient);
        if (user == null) {
            return List.of();
        }
        try {
            return running.getManagers().getImapHostManager().getInbox(user).getMessages().stream()
                    .map(StoredMessage::getMimeMessage)
                    .toList();
        } catch (FolderException unreadable) {
            throw new IllegalStateException("cannot read the mailbox of " + recipient, unreadable);
        }
    }

    /**
     * Waits until at least {@code count} messages were received for {@code recipient} and answers them.
     *
     * @throws AssertionError when they have not all arrived within {@code limit}
     */
    public static List<MimeMessage> await(String recipient, int count, Duration limit) {
        long deadline = System.nanoTime() + limit.toNanos();
        List<MimeMessage> received = to(recipient);
        while (received.size() < count) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out after " + limit.toMillis() + " ms waiting for " + count
                        + " e-mail(s) to " + recipient + "; received " + received.size());
            }
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
            received = to(recipient);
        }
        return received;
    }
}
