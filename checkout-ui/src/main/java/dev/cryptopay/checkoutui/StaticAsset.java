package dev.cryptopay.checkoutui;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;
import org.springframework.http.CacheControl;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;

/**
 * One static file of a page, read once at startup and served from memory with a year-long, immutable cache lifetime.
 * A page links it with {@code ?v=<version>} (the first 16 hex digits of its SHA-256), so a new release changes the
 * address and no browser keeps an old file.
 *
 * <p>An asset may be a bundle: several classpath resources joined in order (a newline between them), so a page loads
 * the shared scripts of this library and its own in one request. The shared ones are {@link #WALLET_SCRIPT},
 * {@link #LIVE_SCRIPT} and {@link #STYLESHEET}.
 */
public record StaticAsset(byte[] bytes, MediaType type, String version) {

    public static final MediaType JAVASCRIPT = MediaType.parseMediaType("text/javascript;charset=utf-8");
    public static final MediaType CSS = MediaType.parseMediaType("text/css;charset=utf-8");

    /**
     * The browser wallet ({@code cryptopayWallet}): EIP-6963 discovery with the EIP-1193 {@code window.ethereum}
     * fallback, accounts, chain switch, sending a transaction and waiting for its receipt, reading a token, and the
     * customer's words for a wallet's errors.
     */
    public static final String WALLET_SCRIPT = "checkout-ui/wallet.js";
    /**
     * Live status ({@code cryptopayLive}): Server-Sent Events with polling of a status route as fallback, and the
     * page's new rendering swapped into {@code <main>} with the change announced.
     */
    public static final String LIVE_SCRIPT = "checkout-ui/live.js";
    /** The one stylesheet of every customer page. */
    public static final String STYLESHEET = "checkout-ui/checkout.css";

    /** The resources joined in this order; fails at startup when one is missing. */
    public static StaticAsset load(MediaType type, String... resources) {
        ByteArrayOutputStream joined = new ByteArrayOutputStream();
        for (int i = 0; i < resources.length; i++) {
            if (i > 0) {
                joined.write('\n');
            }
            try (InputStream in = StaticAsset.class.getClassLoader().getResourceAsStream(resources[i])) {
                if (in == null) {
                    throw new IllegalStateException("Missing page asset " + resources[i]);
                }
                in.transferTo(joined);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        byte[] bytes = joined.toByteArray();
        try {
            byte[] hash = MessageDigest.getInstance("SHA-256").digest(bytes);
            return new StaticAsset(bytes, type, HexFormat.of().formatHex(hash, 0, 8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** {@code path?v=<version>}: the address a page links. */
    public String link(String path) {
        return path + "?v=" + version;
    }

    /** The file, with its type and the long cache lifetime. */
    public ResponseEntity<byte[]> response() {
        return ResponseEntity.ok()
                .contentType(type)
                .cacheControl(
                        CacheControl.maxAge(Duration.ofDays(365)).cachePublic().immutable())
                .body(bytes);
    }
}
