package dev.cryptopay.subscriptions.subscription;

import dev.cryptopay.service.request.Field;
import dev.cryptopay.service.request.JsonBody;
import dev.cryptopay.service.request.ObjectField;
import dev.cryptopay.service.request.Patch;
import dev.cryptopay.service.request.TextField;
import dev.cryptopay.service.request.Violations;
import java.util.List;
import java.util.UUID;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** A {@code POST /subscriber/} body, validated. {@code webhookMetadata} is compact JSON text, or null. */
public record SubscriberRequest(
        UUID planId,
        String customerId,
        String customerName,
        String customerEmail,
        String webhookMetadata,
        String successReturnUrl,
        String failureReturnUrl) {

    static final TextField PLAN_ID = Field.uuid("subscription_plan_id").required();
    static final TextField CUSTOMER_ID = Field.string("customer_id").length(1, 100);
    static final TextField CUSTOMER_NAME =
            Field.string("customer_name").length(1, 100).satisfying(text -> !text.isBlank(), "must not be blank");
    static final TextField CUSTOMER_EMAIL = Field.email("customer_email");
    static final ObjectField WEBHOOK_METADATA = Field.object("webhook_metadata").maxBytes(16 * 1024);
    static final TextField SUCCESS_RETURN_URL = Field.url("success_return_url").length(1, 500);
    static final TextField FAILURE_RETURN_URL = Field.url("failure_return_url").length(1, 500);
    /** Only in PUT bodies, where it may be left out but never sent as null. */
    static final TextField STATUS = Field.string("status").required().oneOf(SubscriberStatus.WIRE_NAMES);

    static final List<String> FIELDS = Field.names(
            PLAN_ID,
            CUSTOMER_ID,
            CUSTOMER_NAME,
            CUSTOMER_EMAIL,
            WEBHOOK_METADATA,
            SUCCESS_RETURN_URL,
            FAILURE_RETURN_URL);

    public static SubscriberRequest parse(JsonMapper json, String body) {
        JsonNode root = JsonBody.object(json, body);
        Violations violations = new Violations();
        violations.rejectUnknown(root, "", FIELDS);
        String planId = PLAN_ID.read(root, violations);
        String customerId = CUSTOMER_ID.read(root, violations);
        String customerName = CUSTOMER_NAME.read(root, violations);
        String customerEmail = CUSTOMER_EMAIL.read(root, violations);
        JsonNode metadata = WEBHOOK_METADATA.read(root, violations);
        String successUrl = SUCCESS_RETURN_URL.read(root, violations);
        String failureUrl = FAILURE_RETURN_URL.read(root, violations);
        violations.throwIfAny();
        return new SubscriberRequest(
                UUID.fromString(planId),
                customerId,
                customerName,
                customerEmail,
                metadata == null ? null : json.writeValueAsString(metadata),
                successUrl,
                failureUrl);
    }

    /**
     * A {@code PUT /subscriber/:id} body (merchant and customer): each member optional. Left out keeps the stored
     * value; {@code customer_name: null} and {@code customer_email: null} remove it; {@code status} cannot be null.
     */
    public record Update(Patch<String> customerName, Patch<String> customerEmail, Patch<SubscriberStatus> status) {

        public static Update parse(JsonMapper json, String body) {
            JsonNode root = JsonBody.object(json, body);
            Violations violations = new Violations();
            violations.rejectUnknown(root, "", Field.names(CUSTOMER_NAME, CUSTOMER_EMAIL, STATUS));
            Patch<String> name = CUSTOMER_NAME.patch(root, violations);
            Patch<String> email = CUSTOMER_EMAIL.patch(root, violations);
            Patch<String> status = STATUS.patch(root, violations);
            violations.throwIfAny();
            return new Update(name, email, status.map(SubscriberStatus::fromWireName));
        }

        /** Whether the body changes nothing at all. */
        boolean isEmpty() {
            return !customerName.given() && !customerEmail.given() && !status.given();
        }
    }
}
