package dev.cryptopay.subscriptions.subscription;

import dev.cryptopay.service.request.BoolField;
import dev.cryptopay.service.request.Field;
import dev.cryptopay.service.request.JsonBody;
import dev.cryptopay.service.request.Patch;
import dev.cryptopay.service.request.TextField;
import dev.cryptopay.service.request.TimestampField;
import dev.cryptopay.service.request.UnsignedField;
import dev.cryptopay.service.request.Violations;
import java.math.BigInteger;
import java.time.Instant;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A {@code PUT} body of a subscription link; every member optional. Left out keeps the stored value;
 * {@code expires_at: null} removes the link's end, {@code customer_name: null} and {@code customer_email: null} remove
 * the subscriber's; {@code trial_ends_at}, {@code is_active}, {@code locked} and {@code owed} cannot be null.
 */
public record LinkUpdate(
        Patch<Instant> trialEndsAt,
        Patch<String> customerEmail,
        Patch<String> customerName,
        Patch<Instant> expiresAt,
        Patch<Boolean> active,
        Patch<Boolean> locked,
        Patch<BigInteger> owed) {

    static final TimestampField TRIAL_ENDS_AT = Field.timestamp("trial_ends_at").required();
    static final TextField CUSTOMER_EMAIL = Field.email("customer_email");
    static final TextField CUSTOMER_NAME =
            Field.string("customer_name").length(1, 100).satisfying(text -> !text.isBlank(), "must not be blank");
    static final TimestampField EXPIRES_AT = Field.timestamp("expires_at");
    static final BoolField IS_ACTIVE = Field.bool("is_active").required();
    static final BoolField LOCKED = Field.bool("locked").required();
    static final UnsignedField OWED = Field.unsignedDigits("owed", 256).required();

    public static LinkUpdate parse(JsonMapper json, String body, Instant now) {
        JsonNode root = JsonBody.object(json, body);
        Violations violations = new Violations();
        violations.rejectUnknown(
                root,
                "",
                Field.names(TRIAL_ENDS_AT, CUSTOMER_EMAIL, CUSTOMER_NAME, EXPIRES_AT, IS_ACTIVE, LOCKED, OWED));
        Patch<Instant> trialEndsAt = TRIAL_ENDS_AT.patch(root, violations);
        Patch<String> email = CUSTOMER_EMAIL.patch(root, violations);
        Patch<String> name = CUSTOMER_NAME.patch(root, violations);
        Patch<Instant> expiresAt = EXPIRES_AT.patch(root, violations);
        if (expiresAt.hasValue() && !expiresAt.value().isAfter(now)) {
            violations.reject("expires_at", "expires_at must be in the future");
        }
        Patch<Boolean> active = IS_ACTIVE.patch(root, violations);
        Patch<Boolean> locked = LOCKED.patch(root, violations);
        Patch<BigInteger> owed = OWED.patch(root, violations);
        violations.throwIfAny();
        return new LinkUpdate(trialEndsAt, email, name, expiresAt, active, locked, owed);
    }

    boolean isEmpty() {
        return !trialEndsAt.given()
                && !customerEmail.given()
                && !customerName.given()
                && !expiresAt.given()
                && !active.given()
                && !locked.given()
                && !owed.given();
    }

    /** Whether the body only locks the link ({@code {"locked": true}}). */
    boolean onlyLocks() {
        return new LinkUpdate(
                        Patch.absent(),
                        Patch.absent(),
                        Patch.absent(),
                        Patch.absent(),
                        Patch.absent(),
                        Patch.of(true),
                        Patch.absent())
                .equals(this);
    }

    /** The subscriber's part of the change: its name and e-mail. */
    SubscriberRequest.Update subscriberDetails() {
        return new SubscriberRequest.Update(customerName, customerEmail, Patch.absent());
    }
}
