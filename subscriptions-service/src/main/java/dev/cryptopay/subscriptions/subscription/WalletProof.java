package dev.cryptopay.subscriptions.subscription;

import dev.cryptopay.service.error.ApiException;
import dev.cryptopay.subscriptions.plan.Addresses;
import dev.cryptopay.subscriptions.plan.EthSignatures;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.HexFormat;
import java.util.regex.Pattern;

/**
 * A customer's proof that its wallet asked for a change of its subscription (its link, or its enrolled subscriber): a
 * {@code personal_sign} (EIP-191) signature by the link's wallet over {@link #message}, sent as
 * {@value #SIGNATURE_HEADER} with the time it was made as {@value #TIMESTAMP_HEADER} and a value the customer's code
 * picks once as {@value #NONCE_HEADER}. Link ids are not secret (a wallet lookup lists them) and subscriber ids travel
 * in invitation URLs, so an id alone never changes an enrolment. The message binds the deployment's host (so a proof
 * made for the sandbox opens nothing in production), the route and its link, the nonce and the exact body, and is good
 * for five minutes either way; {@link WalletProofs} accepts each nonce of a wallet once.
 *
 * <pre>
 * Cryptopay subscription link change
 * sandbox.cryptopay.dev                   (the host of the public API address)
 * PUT /public/subscriptions/link/{id}     (or /public/subscriber/{id})
 * 6f1c2b1e7d4a4a8e9a570c1f8e5d2b3a        (the nonce)
 * 2026-11-22T14:00:00Z
 * {lower-case hex SHA-256 of the body bytes}
 * </pre>
 */
public record WalletProof(String signature, String timestamp, String nonce, String path, String body) {

    public static final String SIGNATURE_HEADER = "X-Wallet-Signature";
    public static final String TIMESTAMP_HEADER = "X-Wallet-Timestamp";
    public static final String NONCE_HEADER = "X-Wallet-Nonce";
    static final Duration WINDOW = Duration.ofMinutes(5);
    private static final Pattern NONCE = Pattern.compile("[A-Za-z0-9_-]{16,64}");

    /** The text the wallet signs for the deployment whose public API is at {@code host}. */
    public String message(String host) {
        return "Cryptopay subscription link change\n" + host + "\nPUT " + path + "\n" + nonce + "\n" + timestamp + "\n"
                + sha256(body);
    }

    /**
     * Refuses (401) unless the link's wallet signed this change for {@code host} within the window around
     * {@code now}; answers until when the proof could be used.
     */
    Instant verify(String host, String wallet, Instant now) {
        if (signature == null
                || signature.isBlank()
                || timestamp == null
                || timestamp.isBlank()
                || nonce == null
                || nonce.isBlank()) {
            throw ApiException.unauthorized(
                    "wallet_signature_required",
                    "A change to a link must be signed by its wallet (" + SIGNATURE_HEADER + ", " + TIMESTAMP_HEADER
                            + ", " + NONCE_HEADER + ")");
        }
        if (!NONCE.matcher(nonce).matches()) {
            throw ApiException.unauthorized(
                    "invalid_wallet_signature", NONCE_HEADER + " must be 16 to 64 characters A-Z, a-z, 0-9, - and _");
        }
        Instant signedAt;
        try {
            signedAt = OffsetDateTime.parse(timestamp).toInstant();
        } catch (DateTimeParseException e) {
            throw ApiException.unauthorized(
                    "invalid_wallet_signature", TIMESTAMP_HEADER + " must be an ISO 8601 timestamp with a time zone");
        }
        if (Duration.between(signedAt, now).abs().compareTo(WINDOW) > 0) {
            throw ApiException.unauthorized("invalid_wallet_signature", "Wallet signature expired");
        }
        boolean byTheWallet = EthSignatures.personalSigner(message(host).getBytes(StandardCharsets.UTF_8), signature)
                .filter(signer -> Addresses.same(signer, wallet))
                .isPresent();
        if (!byTheWallet) {
            throw ApiException.unauthorized(
                    "invalid_wallet_signature", "The change is not signed by the link's wallet");
        }
        return signedAt.plus(WINDOW);
    }

    private static String sha256(String body) {
        try {
            byte[] bytes = body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8);
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
