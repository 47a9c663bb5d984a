package dev.cryptopay.client;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.function.Consumer;

/**
 * Turns every answer of 400 or more into a {@link CryptoPayException} before the generated operation reads it, so
 * callers catch one unchecked type with the problem's fields instead of the generator's {@code ApiException}.
 */
final class ErrorResponses implements Consumer<HttpResponse<InputStream>> {

    /** An error body is read up to this size; the rest is dropped. */
    private static final int MAX_BODY = 64 * 1024;

    @Override
    public void accept(HttpResponse<InputStream> response) {
        if (response.statusCode() < 400) {
            return;
        }
        String body;
        try (InputStream in = response.body()) {
            body = in == null ? "" : new String(in.readNBytes(MAX_BODY), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("could not read the error answer " + response.statusCode(), e);
        }
        throw CryptoPayException.from(response.statusCode(), response.headers(), body);
    }
}
