package dev.cryptopay.checkoutui;

import java.net.URI;
import org.springframework.web.util.HtmlUtils;

/** Text and links as the customers' pages render them: every text escaped, only http(s) links followed. */
public final class Html {

    private Html() {}

    /** The text escaped for HTML content and quoted attribute values; null becomes the empty string. */
    public static String escape(String text) {
        return text == null ? "" : HtmlUtils.htmlEscape(text, "UTF-8");
    }

    /** The URL when it is an absolute http(s) URL, else null (never render another scheme into a link). */
    public static String httpUrl(String url) {
        if (url == null) {
            return null;
        }
        try {
            URI uri = URI.create(url);
            String scheme = uri.getScheme();
            boolean web = "http".equalsIgnoreCase(scheme) || "https".equalsIgnoreCase(scheme);
            return web && uri.getHost() != null ? url : null;
        } catch (IllegalArgumentException malformed) {
            return null;
        }
    }

    /**
     * A long hex value shortened for a sentence: {@code 0x1234…abcd} (the first six and last four characters); short
     * values unchanged.
     */
    public static String shortHex(String hex) {
        if (hex == null || hex.length() <= 14) {
            return hex;
        }
        return hex.substring(0, 6) + "…" + hex.substring(hex.length() - 4);
    }
}
