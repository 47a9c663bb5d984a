package dev.cryptopay.auth.webhook;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** RFC 4231 section 4 HMAC-SHA-256 test cases (case 5, truncated output, does not apply). */
class HmacSha256Rfc4231Test {

    static Stream<Arguments> testCases() {
        byte[] aa131 = repeated((byte) 0xaa, 131);
        return Stream.of(
                Arguments.of(
                        "case 1",
                        repeated((byte) 0x0b, 20),
                        ascii("Hi There"),
                        "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"),
                Arguments.of(
                        "case 2",
                        ascii("Jefe"),
                        ascii("what do ya want for nothing?"),
                        "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"),
                Arguments.of(
                        "case 3",
                        repeated((byte) 0xaa, 20),
                        repeated((byte) 0xdd, 50),
                        "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe"),
                Arguments.of(
                        "case 4",
                        HexFormat.of().parseHex("0102030405060708090a0b0c0d0e0f10111213141516171819"),
                        repeated((byte) 0xcd, 50),
                        "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b"),
                Arguments.of(
                        "case 6",
                        aa131,
                        ascii("Test Using Larger Than Block-Size Key - Hash Key First"),
                        "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"),
                Arguments.of(
                        "case 7",
                        aa131,
                        ascii(
                                "This is a test using a larger than block-size key and a larger than "
                                        + "block-size data. The key needs to be hashed before being used by the HMAC algorithm."),
                        "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2"));
    }

    @ParameterizedTest(name = "RFC 4231 {0}")
    @MethodSource("testCases")
    void matchesRfc4231(String name, byte[] key, byte[] data, String expectedHex) {
        assertThat(WebhookSignature.hmacSha256Hex(key, data)).isEqualTo(expectedHex);
    }

    private static byte[] repeated(byte value, int count) {
        byte[] bytes = new byte[count];
        Arrays.fill(bytes, value);
        return bytes;
    }

    private static byte[] ascii(String text) {
        return text.getBytes(StandardCharsets.US_ASCII);
    }
}
