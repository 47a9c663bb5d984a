package dev.cryptopay.paymentlinks.paymentlink;

import dev.cryptopay.service.error.ApiException;
import org.springframework.http.HttpStatus;

/** A move the link's current status does not allow; the client sees a 409 with the reason. */
public class IllegalTransitionException extends ApiException {

    public IllegalTransitionException(String message) {
        super(HttpStatus.CONFLICT, "illegal_transition", message);
    }
}
