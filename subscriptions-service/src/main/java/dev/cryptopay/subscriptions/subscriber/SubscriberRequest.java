package dev.cryptopay.subscriptions.subscriber;

import dev.cryptopay.service.request.Field;
import dev.cryptopay.service.request.JsonBody;
import dev.cryptopay.service.request.ObjectField;
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
    static final TextField STATUS = Field.string("status").oneOf(SubscriberStatus.WIRE_NAMES);

    static final List<String> FIELDS = List.of(
            "subscription_plan_id",
            "customer_id",
            "customer_name",
            "customer_email",
            "webhook_metadata",
            "success_return_url",
            "failure_return_url");

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

    /** A {@code PUT /subscriber/:id} body: customer_name, customer_email, status, each optional. */
    public record Update(String customerName, String customerEmail, SubscriberStatus status) {

        static final List<String> FIELDS = List.of("customer_name", "customer_email", "status");

        public static Update parse(JsonMapper json, String body) {
            JsonNode root = JsonBody.object(json, body);
            Violations violations = new Violations();
            violations.rejectUnknown(root, "", FIELDS);
            String name = CUSTOMER_NAME.read(root, violations);
            String email = CUSTOMER_EMAIL.read(root, violations);
            String status = STATUS.read(root, violations);
            violations.throwIfAny();
            return new Update(name, email, status == null ? null : SubscriberStatus.fromWireName(status));
        }
    }
}
