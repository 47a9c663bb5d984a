package dev.cryptopay.testsupport.mail;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An SMTP server on a free loopback port that greets, says hello and then refuses every message with the answer it
 * was given (a relay that is full, {@code 451 4.3.0 ...}, or one that will never take it, {@code 550 5.1.1 ...}): at
 * {@code MAIL FROM} for a refusal of the message, at {@code RCPT TO} for a refusal of the recipient. What a sender does
 * with real SMTP refusals is tested against it; GreenMail ({@link TestMail}) accepts everything.
 */
public final class RefusingSmtpServer implements AutoCloseable {

    /** Where the refusal is given. */
    public enum At {
        MAIL_FROM,
        RCPT_TO
    }

    private final ServerSocket socket;
    private final String answer;
    private final At at;
    private final AtomicInteger refused = new AtomicInteger();
    private final Thread acceptor;

    public RefusingSmtpServer(String answer, At at) {
        this.answer = answer;
        this.at = at;
        try {
            socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        acceptor = new Thread(this::acceptAll, "refusing-smtp");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    public int port() {
        return socket.getLocalPort();
    }

    /** How many messages were refused so far. */
    public int refused() {
        return refused.get();
    }

    private void acceptAll() {
        while (!socket.isClosed()) {
            try (Socket client = socket.accept()) {
                converse(client);
            } catch (IOException closedOrGone) {
                // the server was closed, or the client went away: next connection
            }
        }
    }

    private void converse(Socket client) throws IOException {
        BufferedReader in =
                new BufferedReader(new InputStreamReader(client.getInputStream(), StandardCharsets.US_ASCII));
        OutputStream out = client.getOutputStream();
        reply(out, "220 refusing.test ESMTP");
        String line;
        while ((line = in.readLine()) != null) {
            String command = line.toUpperCase(Locale.ROOT);
            if (command.startsWith("EHLO") || command.startsWith("HELO")) {
                reply(out, "250 refusing.test");
            } else if (command.startsWith("MAIL FROM")) {
                refuseOr(out, At.MAIL_FROM, "250 2.1.0 OK");
            } else if (command.startsWith("RCPT TO")) {
                refuseOr(out, At.RCPT_TO, "250 2.1.5 OK");
            } else if (command.startsWith("QUIT")) {
                reply(out, "221 2.0.0 Bye");
                return;
            } else {
                reply(out, "250 OK"); // RSET, NOOP
            }
        }
    }

    private void refuseOr(OutputStream out, At step, String accepted) throws IOException {
        if (at == step) {
            refused.incrementAndGet();
            reply(out, answer);
        } else {
            reply(out, accepted);
        }
    }

    private static void reply(OutputStream out, String line) throws IOException {
        out.write((line + "\r\n").getBytes(StandardCharsets.US_ASCII));
        out.flush();
    }

    @Override
    public void close() {
        try {
            socket.close();
        } catch (IOException alreadyGone) {
            // nothing left to close
        }
        try {
            acceptor.join(5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
