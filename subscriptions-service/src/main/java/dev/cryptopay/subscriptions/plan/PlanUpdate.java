package dev.cryptopay.subscriptions.plan;

import dev.cryptopay.service.request.Field;
import dev.cryptopay.service.request.JsonBody;
import dev.cryptopay.service.request.Patch;
import dev.cryptopay.service.request.Violations;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A {@code PUT /subscriptions/plans/:id} body: the unsigned details. A member left out keeps its value;
 * {@code metadata_uri: null} removes the URI; {@code name} and {@code status} cannot be null.
 */
public record PlanUpdate(Patch<String> name, Patch<String> metadataUri, Patch<PlanStatus> status) {

    /** Deprecation, as {@code DELETE} asks for it. */
    static final PlanUpdate DEPRECATE = new PlanUpdate(Patch.absent(), Patch.absent(), Patch.of(PlanStatus.DEPRECATED));

    public static PlanUpdate parse(JsonMapper json, String body) {
        JsonNode root = JsonBody.object(json, body);
        Violations violations = new Violations();
        violations.rejectUnknown(
                root,
                "",
                Field.names(PlanRequest.NAME_REQUIRED, PlanRequest.METADATA_URI, PlanRequest.STATUS_REQUIRED));
        Patch<String> name = PlanRequest.NAME_REQUIRED.patch(root, violations);
        Patch<String> metadataUri = PlanRequest.METADATA_URI.patch(root, violations);
        Patch<String> status = PlanRequest.STATUS_REQUIRED.patch(root, violations);
        violations.throwIfAny();
        return new PlanUpdate(name, metadataUri, status.map(PlanStatus::fromWireName));
    }
}
