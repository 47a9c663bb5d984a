package dev.cryptopay.service.response;

import dev.cryptopay.service.error.ApiException;
import java.util.UUID;

/** Ids taken from request paths: a malformed one is a 400 naming what it should have been, never a 500. */
public final class PathIds {

    private PathIds() {}

    /**
     * Parses a UUID in its canonical form ({@code UUID.fromString} alone would also take {@code 1-2-3-4-5}).
     *
     * @param what the resource, for the message: "Invalid {what} id: must be a UUID"
     */
    public static UUID uuid(String text, String what) {
        try {
            UUID id = UUID.fromString(text);
            if (id.toString().equalsIgnoreCase(text)) {
                return id;
            }
        } catch (IllegalArgumentException malformed) {
            // reported below
        }
        throw ApiException.invalidField("invalid_id", "id", "Invalid " + what + " id: must be a UUID");
    }
}
