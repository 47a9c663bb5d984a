package dev.cryptopay.webhooks.examples;

import java.util.Map;

/** One delivery as a merchant's endpoint received it from the running service, and the secret it was signed with. */
record SignedDelivery(Map<String, String> headers, byte[] body, String secret, long timestamp) {

    String eventId() {
        return headers.get("X-Service-Event-Id");
    }

    byte[] tamperedBody() {
        byte[] tampered = body.clone();
        tampered[tampered.length / 2] ^= 0x01;
        return tampered;
    }
}
