package dev.cryptopay.service.response;

/**
 * The {@code {message, data}} body of every successful merchant response. Controllers choose the message; services
 * return the data.
 */
public record Envelope<T>(String message, T data) {

    public static <T> Envelope<T> of(String message, T data) {
        return new Envelope<>(message, data);
    }
}
