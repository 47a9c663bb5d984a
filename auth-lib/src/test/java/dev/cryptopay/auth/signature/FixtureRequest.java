package dev.cryptopay.auth.signature;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;

/** The request that {@code fixtures/canonical-request.txt} encodes, signed by OpenSSL and Node.js. */
final class FixtureRequest {

    static final String METHOD = "POST";
    static final String PATH = "/payment_links";
    static final String TIMESTAMP = "2026-01-01T12:00:00Z";
    static final byte[] BODY = "{\"payment_name\":\"Caf\u00e9 \u2615\",\"amount\":10,\"currency\":\"USDC\"}"
            .getBytes(StandardCharsets.UTF_8);
    /** One minute after signing, well inside the default window. */
    static final Clock CLOCK = Clock.fixed(Instant.parse("2026-01-01T12:01:00Z"), ZoneOffset.UTC);

    private FixtureRequest() {}

    static CanonicalRequest canonical() {
        return new CanonicalRequest(METHOD, PATH, TIMESTAMP, BODY);
    }
}
