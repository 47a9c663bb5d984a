package dev.cryptopay.auth.keys;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Minimal PEM armour handling: we only have BouncyCastle's lightweight API (no bcpkix
 * {@code PEMParser}), and keys arrive from config files, environment variables and web forms, so
 * this accepts the usual mangling (CRLF, indentation, literal {@code \n} escapes) and nothing else.
 */
final class Pem {

    private static final Pattern WHITESPACE = Pattern.compile("\\s+");
    private static final Pattern BEGIN_LINE = Pattern.compile("-----BEGIN ([A-Z0-9 ]+)-----");
    private static final int LINE_LENGTH = 64;

    private Pem() {}

    /**
     * Returns the DER bytes of {@code text}, which is either PEM with the given label or bare Base64 DER.
     *
     * @param what a human name for error messages, e.g. "public key"
     * @throws IllegalArgumentException with a message that never echoes key material
     */
    static byte[] decode(String text, String label, String what) {
        if (text == null || text.isBlank()) {
            throw new IllegalArgumentException(capitalize(what) + " is empty");
        }
        String unescaped = text.replace("\\r", "").replace("\\n", "\n").strip();
        boolean armoured = unescaped.startsWith("-----BEGIN ");
        String base64 = armoured ? body(unescaped, label, what) : unescaped;
        String compact = WHITESPACE.matcher(base64).replaceAll("");
        if (compact.isEmpty()) {
            throw new IllegalArgumentException(capitalize(what) + " PEM has no content");
        }
        try {
            return Base64.getDecoder().decode(compact.getBytes(StandardCharsets.US_ASCII));
        } catch (IllegalArgumentException e) {
            // Deliberately not chaining e: its message can quote the offending input.
            throw new IllegalArgumentException(
                    armoured
                            ? capitalize(what) + " PEM body is not valid Base64"
                            : capitalize(what) + " is neither PEM ('-----BEGIN " + label
                                    + "-----') nor valid Base64 DER");
        }
    }

    /** PEM with 64-character lines and a trailing newline, the layout OpenSSL writes. */
    static String encode(String label, byte[] der) {
        String lines = Base64.getMimeEncoder(LINE_LENGTH, new byte[] {'\n'}).encodeToString(der);
        return "-----BEGIN " + label + "-----\n" + lines + "\n-----END " + label + "-----\n";
    }

    private static String body(String pem, String label, String what) {
        Matcher begin = BEGIN_LINE.matcher(pem);
        if (!begin.lookingAt()) {
            throw new IllegalArgumentException(capitalize(what) + " PEM has a malformed BEGIN line");
        }
        String found = begin.group(1);
        if (!found.equals(label)) {
            throw new IllegalArgumentException(
                    "Expected PEM '" + label + "' for a " + what + " but found '" + found + "'" + hintFor(found));
        }
        String endLine = "-----END " + label + "-----";
        int end = pem.indexOf(endLine, begin.end());
        if (end < 0) {
            throw new IllegalArgumentException(capitalize(what) + " PEM is missing its '" + endLine + "' line");
        }
        if (!pem.substring(end + endLine.length()).isBlank()) {
            throw new IllegalArgumentException(capitalize(what) + " PEM has unexpected text after '" + endLine + "'");
        }
        return pem.substring(begin.end(), end);
    }

    private static String hintFor(String foundLabel) {
        return switch (foundLabel) {
            case "RSA PRIVATE KEY" -> " (PKCS#1); convert it with 'openssl pkcs8 -topk8 -nocrypt'";
            case "RSA PUBLIC KEY" -> " (PKCS#1); convert it with 'openssl rsa -RSAPublicKey_in -pubout'";
            case "ENCRYPTED PRIVATE KEY" -> "; encrypted keys are not supported, export it unencrypted (PKCS#8)";
            case "PRIVATE KEY" -> "; this is a private key, supply the public key instead";
            case "PUBLIC KEY" -> "; this is a public key, signing needs the private key";
            default -> "";
        };
    }

    private static String capitalize(String what) {
        return Character.toUpperCase(what.charAt(0)) + what.substring(1);
    }
}
