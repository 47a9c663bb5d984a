package dev.cryptopay.service.request;

import dev.cryptopay.service.text.Storable;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import tools.jackson.databind.JsonNode;

/** A JSON object, returned as a tree for the caller to read further or keep as free-form JSON. */
public final class ObjectField extends Field<JsonNode, ObjectField> {

    private int maxBytes = Integer.MAX_VALUE;

    ObjectField(String name) {
        super(name);
    }

    /** Refused when the object, written as compact JSON, is longer than this many UTF-8 bytes. */
    public ObjectField maxBytes(int bytes) {
        declaring();
        this.maxBytes = bytes;
        return this;
    }

    @Override
    JsonNode convert(JsonNode value, String path, Violations violations) {
        if (!value.isObject()) {
            return reject(violations, path, path + " must be an object");
        }
        Optional<String> unstorable = Storable.jsonProblem(value);
        if (unstorable.isPresent()) {
            return reject(violations, path, path + " " + unstorable.get());
        }
        if (maxBytes != Integer.MAX_VALUE && value.toString().getBytes(StandardCharsets.UTF_8).length > maxBytes) {
            return reject(violations, path, path + " must be at most " + maxBytes / 1024 + " KB of JSON");
        }
        return value;
    }
}
