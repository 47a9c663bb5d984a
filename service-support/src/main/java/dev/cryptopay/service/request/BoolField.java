package dev.cryptopay.service.request;

import tools.jackson.databind.JsonNode;

/** A JSON true or false. */
public final class BoolField extends Field<Boolean, BoolField> {

    BoolField(String name) {
        super(name);
    }

    @Override
    Boolean convert(JsonNode value, String path, Violations violations) {
        if (!value.isBoolean()) {
            return reject(violations, path, path + " must be true or false");
        }
        return value.booleanValue();
    }
}
