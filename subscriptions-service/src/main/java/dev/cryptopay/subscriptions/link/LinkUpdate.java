package dev.cryptopay.subscriptions.link;

import dev.cryptopay.service.request.BoolField;
import dev.cryptopay.service.request.Field;
import dev.cryptopay.service.request.JsonBody;
import dev.cryptopay.service.request.TextField;
import dev.cryptopay.service.request.TimestampField;
import dev.cryptopay.service.request.UnsignedField;
import dev.cryptopay.service.request.Violations;
import java.math.BigInteger;
import java.time.Instant;
import java.util.List;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** A {@code PUT} body of a subscription link; every field optional, null meaning unchanged. */
public record LinkUpdate(
        Instant trialEndsAt,
        String customerEmail,
        String customerName,
        Instant expiresAt,
        Boolean active,
        Boolean locked,
        BigInteger owed) {

    static final TimestampField TRIAL_ENDS_AT = Field.timestamp("trial_ends_at");
    static final TextField CUSTOMER_EMAIL = Field.email("customer_email");
    static final TextField CUSTOMER_NAME =
            Field.string("customer_name").length(1, 100).satisfying(text -> !text.isBlank(), "must not be blank");
    static final TimestampField EXPIRES_AT = Field.timestamp("expires_at");
    static final BoolField IS_ACTIVE = Field.bool("is_active");
    static final BoolField LOCKED = Field.bool("locked");
    static final UnsignedField OWED = Field.unsignedDigits("owed", 256);

    static final List<String> FIELDS =
            List.of("trial_ends_at", "customer_email", "customer_name", "expires_at", "is_active", "locked", "owed");

    public static LinkUpdate parse(JsonMapper json, String body, Instant now) {
        JsonNode root = JsonBody.object(json, body);
        Violations violations = new Violations();
        violations.rejectUnknown(root, "", FIELDS);
        Instant trialEndsAt = TRIAL_ENDS_AT.read(root, violations);
        String email = CUSTOMER_EMAIL.read(root, violations);
        String name = CUSTOMER_NAME.read(root, violations);
        Instant expiresAt = EXPIRES_AT.read(root, violations);
        if (expiresAt != null && !expiresAt.isAfter(now)) {
            violations.reject("expires_at", "expires_at must be in the future");
        }
        Boolean active = IS_ACTIVE.read(root, violations);
        Boolean locked = LOCKED.read(root, violations);
        BigInteger owed = OWED.read(root, violations);
        violations.throwIfAny();
        return new LinkUpdate(trialEndsAt, email, name, expiresAt, active, locked, owed);
    }

    boolean isEmpty() {
        return trialEndsAt == null
                && customerEmail == null
                && customerName == null
                && expiresAt == null
                && active == null
                && locked == null
                && owed == null;
    }
}
