package dev.cryptopay.notifications.sending;

import jakarta.mail.MessagingException;
import jakarta.mail.internet.AddressException;
import org.eclipse.angus.mail.smtp.SMTPAddressFailedException;
import org.eclipse.angus.mail.smtp.SMTPSendFailedException;
import org.springframework.mail.MailException;
import org.springframework.mail.MailSendException;

/**
 * What a failed attempt means: a permanent refusal (an SMTP 5xx answer, an address that is no address) is not tried
 * again; anything else (a 4xx answer, no connection, a timeout, refused credentials) is.
 *
 * @param permanent whether trying again cannot help
 * @param error what to record: the server's answer where there was one
 */
record SmtpOutcome(boolean permanent, String error) {

    private static final int MAX_ERROR_LENGTH = 1_000;

    static SmtpOutcome of(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = next(cause)) {
            if (cause instanceof SMTPAddressFailedException refused) {
                return answer(refused.getReturnCode(), refused.getMessage());
            }
            if (cause instanceof SMTPSendFailedException refused) {
                return answer(refused.getReturnCode(), refused.getMessage());
            }
            if (cause instanceof AddressException malformed) {
                return new SmtpOutcome(true, trim("Not a valid e-mail address: " + malformed.getMessage()));
            }
        }
        return new SmtpOutcome(false, trim(describe(failure)));
    }

    private static SmtpOutcome answer(int code, String message) {
        return new SmtpOutcome(code >= 500 && code < 600, trim(message == null ? "SMTP " + code : message.strip()));
    }

    /** The next exception down: a MessagingException's chained one, a MailSendException's failed message's. */
    private static Throwable next(Throwable cause) {
        if (cause instanceof MailSendException send && !send.getFailedMessages().isEmpty()) {
            return send.getFailedMessages().values().iterator().next();
        }
        if (cause instanceof MessagingException messaging && messaging.getNextException() != null) {
            return messaging.getNextException();
        }
        return cause.getCause() == cause ? null : cause.getCause();
    }

    private static String describe(Throwable failure) {
        Throwable root = failure;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String message = failure instanceof MailException && root != failure
                ? failure.getMessage() + " (" + root + ")"
                : failure.toString();
        return message == null ? failure.getClass().getSimpleName() : message;
    }

    private static String trim(String error) {
        String line = error.replaceAll("\\s+", " ").strip();
        return line.length() <= MAX_ERROR_LENGTH ? line : line.substring(0, MAX_ERROR_LENGTH);
    }
}
