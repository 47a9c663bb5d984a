package dev.cryptopay.paymentlinks.checkout;

import com.google.zxing.BarcodeFormat;
import com.google.zxing.EncodeHintType;
import com.google.zxing.WriterException;
import com.google.zxing.common.BitMatrix;
import com.google.zxing.qrcode.QRCodeWriter;
import com.google.zxing.qrcode.decoder.ErrorCorrectionLevel;
import java.util.Map;
import org.springframework.web.util.HtmlUtils;

/**
 * An inline SVG QR code. ZXing encodes the text into a module matrix (error correction M, the standard quiet zone of
 * four modules); the SVG is one white square and one black {@code <path>} of one rectangle per run of dark modules,
 * drawn with presentation attributes only (the checkout's Content-Security-Policy allows no inline styles).
 */
final class QrCodeSvg {

    /** Modules of light margin around the code, as ISO/IEC 18004 asks. */
    static final int QUIET_ZONE = 4;

    private static final Map<EncodeHintType, Object> HINTS =
            Map.of(EncodeHintType.ERROR_CORRECTION, ErrorCorrectionLevel.M, EncodeHintType.MARGIN, QUIET_ZONE);

    private QrCodeSvg() {}

    /**
     * The SVG element for {@code text}, one user unit per module, scaled by CSS.
     *
     * @param label what the image is, for assistive technology ({@code aria-label})
     */
    static String render(String text, String label, String id) {
        BitMatrix matrix = encode(text);
        int size = matrix.getWidth();
        StringBuilder path = new StringBuilder();
        for (int y = 0; y < matrix.getHeight(); y++) {
            int x = 0;
            while (x < size) {
                if (!matrix.get(x, y)) {
                    x++;
                    continue;
                }
                int start = x;
                while (x < size && matrix.get(x, y)) {
                    x++;
                }
                path.append('M')
                        .append(start)
                        .append(' ')
                        .append(y)
                        .append('h')
                        .append(x - start)
                        .append("v1h-")
                        .append(x - start)
                        .append('z');
            }
        }
        return """
                <svg xmlns="http://www.w3.org/2000/svg" id="%s" class="qr-code" viewBox="0 0 %d %d" \
                width="%d" height="%d" shape-rendering="crispEdges" role="img" aria-label="%s">\
                <rect width="%d" height="%d" fill="#ffffff"/><path fill="#000000" d="%s"/></svg>""".formatted(
                        id, size, size, size * 6, size * 6, HtmlUtils.htmlEscape(label, "UTF-8"), size, size, path);
    }

    private static BitMatrix encode(String text) {
        try {
            // Width and height 0: one pixel per module, the quiet zone included.
            return new QRCodeWriter().encode(text, BarcodeFormat.QR_CODE, 0, 0, HINTS);
        } catch (WriterException tooLong) {
            throw new IllegalArgumentException("Text does not fit a QR code", tooLong);
        }
    }
}
