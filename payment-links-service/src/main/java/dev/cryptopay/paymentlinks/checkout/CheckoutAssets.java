package dev.cryptopay.paymentlinks.checkout;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import org.springframework.http.CacheControl;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * The checkout page's script and stylesheet ({@code src/main/resources/checkout/}), read once at startup and served
 * from memory with a year-long, immutable cache lifetime. The page links them with {@code ?v=<content hash>}, so a
 * new release changes the address and no browser keeps an old file.
 */
@RestController
class CheckoutAssets {

    static final MediaType JAVASCRIPT = MediaType.parseMediaType("text/javascript;charset=utf-8");
    static final MediaType CSS = MediaType.parseMediaType("text/css;charset=utf-8");

    private final Asset script = Asset.load("checkout/checkout.js", JAVASCRIPT);
    private final Asset stylesheet = Asset.load("checkout/checkout.css", CSS);

    @GetMapping("/checkout/assets/checkout.js")
    ResponseEntity<byte[]> script() {
        return script.response();
    }

    @GetMapping("/checkout/assets/checkout.css")
    ResponseEntity<byte[]> stylesheet() {
        return stylesheet.response();
    }

    /** The script's address relative to the page ({@code /checkout/payment_link}). */
    String scriptPath() {
        return "assets/checkout.js?v=" + script.version();
    }

    String stylesheetPath() {
        return "assets/checkout.css?v=" + stylesheet.version();
    }

    /** One static file with its content type and the first 16 hex digits of its SHA-256 as version. */
    private record Asset(byte[] bytes, MediaType type, String version) {

        static Asset load(String resource, MediaType type) {
            try (InputStream in = CheckoutAssets.class.getClassLoader().getResourceAsStream(resource)) {
                if (in == null) {
                    throw new IllegalStateException("Missing checkout asset " + resource);
                }
                byte[] bytes = in.readAllBytes();
                byte[] hash = MessageDigest.getInstance("SHA-256").digest(bytes);
                return new Asset(bytes, type, HexFormat.of().formatHex(hash, 0, 8));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            } catch (NoSuchAlgorithmException e) {
                throw new IllegalStateException(e);
            }
        }

        ResponseEntity<byte[]> response() {
            return ResponseEntity.ok()
                    .contentType(type)
                    .cacheControl(CacheControl.maxAge(java.time.Duration.ofDays(365))
                            .cachePublic()
                            .immutable())
                    .body(bytes);
        }
    }
}
