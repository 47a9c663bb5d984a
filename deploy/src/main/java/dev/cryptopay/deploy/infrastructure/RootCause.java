package dev.cryptopay.deploy.infrastructure;

/** The part of a failure worth quoting to people: the first line of the innermost cause's message. */
final class RootCause {

    private RootCause() {}

    static String message(Throwable failure) {
        Throwable cause = failure;
        while (cause.getCause() != null && cause.getCause() != cause) {
            cause = cause.getCause();
        }
        String message = cause.getMessage();
        return message == null ? cause.getClass().getSimpleName() : firstLine(message);
    }

    static String firstLine(String message) {
        if (message == null) {
            return "no reason given";
        }
        int newline = message.indexOf('\n');
        return newline < 0 ? message : message.substring(0, newline);
    }
}
