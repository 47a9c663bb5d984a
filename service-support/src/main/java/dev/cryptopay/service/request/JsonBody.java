package dev.cryptopay.service.request;

import dev.cryptopay.service.error.ApiException;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** Request bodies that must be one JSON object; anything else is a 400 saying what is wrong. */
public final class JsonBody {

    private JsonBody() {}

    public static JsonNode object(JsonMapper json, String body) {
        if (body == null || body.isBlank()) {
            throw ApiException.badRequest("invalid_request", "Request body is required");
        }
        JsonNode root;
        try {
            root = json.readTree(body);
        } catch (JacksonException e) {
            throw ApiException.badRequest("invalid_request", "Malformed JSON body");
        } catch (NumberFormatException e) {
            // A legal JSON number whose exponent no BigDecimal can hold (e.g. 1e-100000000000001); found by fuzzing.
            throw ApiException.badRequest("invalid_request", "A number in the JSON body is out of range");
        }
        if (root == null || !root.isObject()) {
            throw ApiException.badRequest("invalid_request", "Request body must be a JSON object");
        }
        return root;
    }
}
