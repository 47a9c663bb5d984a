package dev.cryptopay.client.webhook;

/** A webhook delivery that must not be processed; the message says why. Answer it with a 4xx. */
public class WebhookVerificationException extends Exception {

    private static final long serialVersionUID = 1L;

    public WebhookVerificationException(String reason) {
        super(reason);
    }
}
