package dev.cryptopay.deploy;

import dev.cryptopay.testsupport.mail.MimeParts;
import jakarta.mail.Address;
import jakarta.mail.MessagingException;
import jakarta.mail.internet.MimeMessage;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * {@code ./dev-mail}: the e-mails the local stack's SMTP server received ({@code <data dir>/mail/<n>.eml}, saved by the
 * launcher). Without arguments it lists them, newest last; {@code ./dev-mail <n>} prints one (headers and its text
 * part); {@code ./dev-mail <n> --html} writes its HTML part to {@code <n>.html} beside it and prints that path, to open
 * in a browser. Exit status 0, or 2 for a usage problem or a message that is not there.
 */
public final class DevMail {

    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss");

    private DevMail() {}

    public static void main(String[] args) {
        System.exit(run(args, System.getenv(), System.out, System.err));
    }

    static int run(String[] args, Map<String, String> env, PrintStream out, PrintStream err) {
        Path dir = SignedRequest.stackEnvFile(env).resolveSibling("mail");
        try {
            if (args.length == 0) {
                return list(dir, out);
            }
            if (args[0].matches("\\d+") && (args.length == 1 || (args.length == 2 && args[1].equals("--html")))) {
                Path file = dir.resolve(Integer.parseInt(args[0]) + ".eml");
                if (!Files.exists(file)) {
                    err.println("[dev-mail] no e-mail " + args[0] + " in " + StackConsole.path(dir)
                            + " (./dev-mail lists them)");
                    return 2;
                }
                return args.length == 1 ? show(file, out) : html(file, out, err);
            }
        } catch (IOException | MessagingException e) {
            err.println("[dev-mail] could not read " + StackConsole.path(dir) + ": " + e.getMessage());
            return 2;
        }
        err.println("""
                usage: ./dev-mail              lists the e-mails the local stack sent, newest last
                       ./dev-mail <n>          prints e-mail n: its headers and text part
                       ./dev-mail <n> --html   writes its HTML part to a file and prints the path
                The launcher's SMTP server (GreenMail) keeps them in .local/mail (STACK_DATA_DIR moves it).""");
        return 2;
    }

    private static int list(Path dir, PrintStream out) throws IOException, MessagingException {
        List<Path> files = messages(dir);
        if (files.isEmpty()) {
            out.println("No e-mails yet in " + StackConsole.path(dir) + ".");
            return 0;
        }
        for (Path file : files) {
            MimeMessage message = MimeParts.read(file);
            out.printf(
                    "%4s  %s  %-32s  %s%n",
                    number(file),
                    message.getSentDate() == null
                            ? "-"
                            : TIME.format(message.getSentDate().toInstant().atZone(ZoneId.systemDefault())),
                    addresses(message.getAllRecipients()),
                    message.getSubject());
        }
        return 0;
    }

    private static int show(Path file, PrintStream out) throws IOException, MessagingException {
        MimeMessage message = MimeParts.read(file);
        out.println("From:     " + addresses(message.getFrom()));
        out.println("To:       " + addresses(message.getAllRecipients()));
        if (message.getReplyTo() != null && !Arrays.equals(message.getReplyTo(), message.getFrom())) {
            out.println("Reply-To: " + addresses(message.getReplyTo()));
        }
        out.println("Subject:  " + message.getSubject());
        out.println();
        String text = MimeParts.part(message, "text/plain");
        out.println(text == null ? "(no text part; ./dev-mail " + number(file) + " --html)" : text.strip());
        return 0;
    }

    private static int html(Path file, PrintStream out, PrintStream err) throws IOException, MessagingException {
        String html = MimeParts.part(MimeParts.read(file), "text/html");
        if (html == null) {
            err.println("[dev-mail] e-mail " + number(file) + " has no HTML part");
            return 2;
        }
        Path target = file.resolveSibling(number(file) + ".html");
        Files.writeString(target, html, StandardCharsets.UTF_8);
        out.println(target.toAbsolutePath());
        return 0;
    }

    private static List<Path> messages(Path dir) throws IOException {
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(file -> file.getFileName().toString().matches("\\d+\\.eml"))
                    .sorted(Comparator.comparingInt(file -> Integer.parseInt(number(file))))
                    .toList();
        }
    }

    private static String number(Path file) {
        String name = file.getFileName().toString();
        return name.substring(0, name.indexOf('.'));
    }

    private static String addresses(Address[] addresses) {
        return addresses == null
                ? "-"
                : Arrays.stream(addresses).map(Address::toString).collect(Collectors.joining(", "));
    }
}
