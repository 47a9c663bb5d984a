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
}
