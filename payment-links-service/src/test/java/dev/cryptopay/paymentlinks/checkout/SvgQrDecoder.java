package dev.cryptopay.paymentlinks.checkout;

import com.google.zxing.BinaryBitmap;
import com.google.zxing.DecodeHintType;
import com.google.zxing.NotFoundException;
import com.google.zxing.RGBLuminanceSource;
import com.google.zxing.ReaderException;
import com.google.zxing.common.HybridBinarizer;
import com.google.zxing.qrcode.QRCodeReader;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads a QR code back from the checkout's SVG, the way a phone camera would see it: the path's rectangles are painted
 * black on white into a pixel grid (several pixels per module), and ZXing's own reader decodes the grid.
 */
final class SvgQrDecoder {

    private static final Pattern SVG = Pattern.compile("<svg[^>]*id=\"qr-code\"[^>]*>.*?</svg>", Pattern.DOTALL);
    private static final Pattern VIEW_BOX = Pattern.compile("viewBox=\"0 0 (\\d+) (\\d+)\"");
    private static final Pattern PATH = Pattern.compile("<path fill=\"#000000\" d=\"([^\"]*)\"/>");
    private static final Pattern RUN = Pattern.compile("M(\\d+) (\\d+)h(\\d+)v1h-(\\d+)z");
    private static final int PIXELS_PER_MODULE = 4;

    private SvgQrDecoder() {}

    /** The SVG element of the page's QR code. */
    static String svgOf(String html) {
        Matcher svg = SVG.matcher(html);
        if (!svg.find()) {
            throw new AssertionError("no QR code in the page");
        }
        return svg.group();
    }

    /** The text encoded in the SVG. */
    static String decode(String svg) {
        Matcher box = VIEW_BOX.matcher(svg);
        Matcher path = PATH.matcher(svg);
        if (!box.find() || !path.find()) {
            throw new AssertionError("not a QR code SVG: " + svg);
        }
        int modules = Integer.parseInt(box.group(1));
        int size = modules * PIXELS_PER_MODULE;
        int[] pixels = new int[size * size];
        java.util.Arrays.fill(pixels, 0xFFFFFFFF);
        String d = path.group(1);
        Matcher run = RUN.matcher(d);
        int consumed = 0;
        while (run.find()) {
            if (run.start() != consumed || !run.group(3).equals(run.group(4))) {
                throw new AssertionError("unexpected path data at " + consumed + ": " + d);
            }
            consumed = run.end();
            paint(pixels, size, Integer.parseInt(run.group(1)), Integer.parseInt(run.group(2)), run.group(3));
        }
        if (consumed != d.length()) {
            throw new AssertionError("unread path data: " + d.substring(consumed));
        }
        BinaryBitmap bitmap = new BinaryBitmap(new HybridBinarizer(new RGBLuminanceSource(size, size, pixels)));
        try {
            return new QRCodeReader()
                    .decode(bitmap, Map.of(DecodeHintType.PURE_BARCODE, Boolean.TRUE))
                    .getText();
        } catch (NotFoundException e) {
            throw new AssertionError("no QR code found in the SVG", e);
        } catch (ReaderException e) {
            throw new AssertionError("the SVG's QR code does not decode", e);
        }
    }

    private static void paint(int[] pixels, int size, int x, int y, String length) {
        int width = Integer.parseInt(length);
        for (int dy = 0; dy < PIXELS_PER_MODULE; dy++) {
            int row = (y * PIXELS_PER_MODULE + dy) * size;
            for (int dx = 0; dx < width * PIXELS_PER_MODULE; dx++) {
                pixels[row + x * PIXELS_PER_MODULE + dx] = 0xFF000000;
            }
        }
    }
}
