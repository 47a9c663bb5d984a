package dev.cryptopay.testsupport.mail;

import jakarta.mail.BodyPart;
import jakarta.mail.MessagingException;
import jakarta.mail.Multipart;
import jakarta.mail.Part;
import jakarta.mail.Session;
import jakarta.mail.internet.MimeMessage;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;

/** Reading e-mails as a mail client does: a saved message ({@code .eml}), and the part of a type in it. */
public final class MimeParts {

    private MimeParts() {}

    /** A message saved as RFC 822 text ({@code <n>.eml}). */
    public static MimeMessage read(Path file) throws IOException, MessagingException {
        try (InputStream in = Files.newInputStream(file)) {
            return new MimeMessage(Session.getInstance(new Properties()), in);
        }
    }

    /** The text of the first part of this MIME type ({@code text/html}), searching nested multiparts; null if none. */
    public static String part(Part part, String type) throws IOException, MessagingException {
        if (part.isMimeType(type)) {
            return (String) part.getContent();
        }
        if (part.getContent() instanceof Multipart multipart) {
            for (int i = 0; i < multipart.getCount(); i++) {
                BodyPart child = multipart.getBodyPart(i);
                String found = part(child, type);
                if (found != null) {
                    return found;
                }
            }
        }
        return null;
    }
}
