package dev.cryptopay.service.identity;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The internal callers ({@link dev.cryptopay.auth.internal.InternalCallers}) a route accepts, on a handler method or
 * its controller class (the method's wins). A route without it accepts only the gateway, so every merchant route is
 * closed to the other callers by default; a route that moves money names the one caller it is for:
 *
 * <pre>{@code
 * @AllowedCallers(InternalCallers.CHAIN_WATCHER)
 * @PostMapping("/internal/payment_links/{id}/transactions")
 * }</pre>
 *
 * A valid token of another caller is answered 403 {@code internal_caller_not_allowed}.
 */
@Target({ElementType.TYPE, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface AllowedCallers {

    /** Caller ids, e.g. {@code InternalCallers.CHAIN_WATCHER}. */
    String[] value();
}
