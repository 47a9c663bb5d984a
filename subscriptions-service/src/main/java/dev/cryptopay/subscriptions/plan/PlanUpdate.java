package dev.cryptopay.subscriptions.plan;

import dev.cryptopay.service.request.JsonBody;
import dev.cryptopay.service.request.Violations;
import java.util.List;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** A {@code PUT /subscriptions/plans/:id} body: the unsigned details, each optional (null = unchanged). */
public record PlanUpdate(String name, String metadataUri, PlanStatus status) {

    static final List<String> FIELDS = List.of("name", "metadata_uri", "status");

    public static PlanUpdate parse(JsonMapper json, String body) {
        JsonNode root = JsonBody.object(json, body);
        Violations violations = new Violations();
        violations.rejectUnknown(root, "", FIELDS);
        String name = PlanRequest.NAME.read(root, violations);
        String metadataUri = PlanRequest.METADATA_URI.read(root, violations);
        String status = PlanRequest.STATUS.read(root, violations);
        violations.throwIfAny();
        return new PlanUpdate(name, metadataUri, status == null ? null : PlanStatus.fromWireName(status));
    }
}
