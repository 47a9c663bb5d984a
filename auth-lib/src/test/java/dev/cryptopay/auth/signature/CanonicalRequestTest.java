package dev.cryptopay.auth.signature;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class CanonicalRequestTest {

    private static final String TIMESTAMP = "2026-01-01T12:00:00Z";

    @Test
    void concatenatesMethodPathTimestampAndBodyWithoutSeparators() {
        CanonicalRequest request = new CanonicalRequest("POST", "/payment_links", TIMESTAMP, utf8("{\"a\":1}"));

        assertThat(new String(request.toBytes(), StandardCharsets.UTF_8))
                .isEqualTo("POST/payment_links2026-01-01T12:00:00Z{\"a\":1}");
    }

    @Test
    void nullBodyIsEmpty() {
        CanonicalRequest request = new CanonicalRequest("GET", "/payment_links?limit=10", TIMESTAMP, null);

        assertThat(request.toBytes()).isEqualTo(utf8("GET/payment_links?limit=102026-01-01T12:00:00Z"));
        assertThat(request.body()).isEmpty();
        assertThat(request).isEqualTo(new CanonicalRequest("GET", "/payment_links?limit=10", TIMESTAMP, new byte[0]));
    }

    @Test
    void keepsBodyBytesExactlyIncludingMultibyteUtf8() {
        byte[] body = utf8("{\"name\":\"Café ☕ 🚀\"}");
        CanonicalRequest request = new CanonicalRequest("POST", "/x", TIMESTAMP, body);

        byte[] bytes = request.toBytes();
        assertThat(bytes).hasSize("POST/x".length() + TIMESTAMP.length() + body.length);
        assertThat(bytes).endsWith(body);
    }

    @Test
    void keepsBodyBytesThatAreNotValidUtf8() {
        byte[] body = {(byte) 0xFF, 0x00, (byte) 0xC3};

        assertThat(new CanonicalRequest("PUT", "/x", TIMESTAMP, body).toBytes()).endsWith(body);
    }

    @Test
    void usesMethodExactlyAsGiven() {
        assertThat(new CanonicalRequest("post", "/x", TIMESTAMP, null).toBytes())
                .isNotEqualTo(new CanonicalRequest("POST", "/x", TIMESTAMP, null).toBytes());
    }

    @Test
    void isImmutableDespiteTheByteArray() {
        byte[] body = utf8("abc");
        CanonicalRequest request = new CanonicalRequest("POST", "/x", TIMESTAMP, body);

        body[0] = 'X';
        request.body()[1] = 'X';

        assertThat(request.body()).isEqualTo(utf8("abc"));
    }

    @Test
    void equalityComparesBodyContent() {
        CanonicalRequest one = new CanonicalRequest("POST", "/x", TIMESTAMP, utf8("abc"));
        CanonicalRequest same = new CanonicalRequest("POST", "/x", TIMESTAMP, utf8("abc"));
        CanonicalRequest other = new CanonicalRequest("POST", "/x", TIMESTAMP, utf8("abd"));

        assertThat(one).isEqualTo(same).hasSameHashCodeAs(same).isNotEqualTo(other);
    }

    @Test
    void toStringShowsBodyLengthNotContent() {
        CanonicalRequest request = new CanonicalRequest("POST", "/x", TIMESTAMP, utf8("secret-card-data"));

        assertThat(request.toString())
                .isEqualTo("CanonicalRequest[method=POST, path=/x, timestamp=2026-01-01T12:00:00Z, bodyLength=16]");
    }

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
