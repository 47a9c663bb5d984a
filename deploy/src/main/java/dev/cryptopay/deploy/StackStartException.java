package dev.cryptopay.deploy;

/**
 * The stack could not start, with a message written for the person at the terminal: what failed, why when known,
 * and what to do. The launcher prints the message alone, never a stack trace.
 */
public final class StackStartException extends RuntimeException {

    public StackStartException(String message) {
        super(message);
    }

    public StackStartException(String message, Throwable cause) {
        super(message, cause);
    }

    /** The part of a failure worth quoting to people: the first line of the innermost cause's message. */
    static String rootCause(Throwable failure) {
        Throwable cause = failure;
        while (cause.getCause() != null && cause.getCause() != cause) {
            cause = cause.getCause();
        }
        return cause.getMessage() == null ? cause.getClass().getSimpleName() : firstLine(cause.getMessage());
    }

    static String firstLine(String message) {
        return message == null ? "no reason given" : message.lines().findFirst().orElse("");
    }
}
