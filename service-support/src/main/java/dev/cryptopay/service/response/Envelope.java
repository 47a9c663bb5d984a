package dev.cryptopay.service.response;

import java.util.LinkedHashMap;
import java.util.Map;

/** The {@code {message, data}} body of every successful merchant response. */
public final class Envelope {

    private Envelope() {}

    public static Map<String, Object> of(String message, Object data) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("message", message);
        body.put("data", data);
        return body;
    }
}
