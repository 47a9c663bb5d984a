package dev.cryptopay.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.function.BooleanSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the tests that start whole stacks share: reading what the stack printed, an unsigned POST, and waiting for a
 * condition.
 */
final class StackTestSupport {

    private StackTestSupport() {}

    /** A stream for {@code StackOptions.out} that the test reads and the build log still shows. */
    static PrintStream teeToStdout(ByteArrayOutputStream printed) {
        return new PrintStream(new Tee(printed, System.out), true, StandardCharsets.UTF_8);
    }

    /** The first group of the first match of {@code regex} in {@code text}; fails the test when there is none. */
    static String find(String text, String regex) {
        Matcher matcher = Pattern.compile(regex).matcher(text);
        assertThat(matcher.find()).as("'" + regex + "' in:\n" + text).isTrue();
        return matcher.group(1);
    }

    /** An unsigned JSON {@code POST}, as customer-side code sends the public payment report. */
    static HttpResponse<String> post(String url, String json) {
        return send(HttpRequest.newBuilder(URI.create(url))
                .timeout(Duration.ofSeconds(30))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json))
                .build());
    }

    /** An unsigned {@code GET}, as a browser opens a page. */
    static HttpResponse<String> get(String url) {
        return send(HttpRequest.newBuilder(URI.create(url))
                .timeout(Duration.ofSeconds(30))
                .GET()
                .build());
    }

    private static HttpResponse<String> send(HttpRequest request) {
        try {
            return HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Polls until the condition holds or the limit passes; the caller then asserts the outcome itself. */
    static void awaitUpTo(Duration limit, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + limit.toNanos();
        while (!condition.getAsBoolean() && System.nanoTime() < deadline) {
            Thread.sleep(200);
        }
    }

    /** Writes to both streams: the test reads what was printed, the build log still shows it. */
    private static final class Tee extends OutputStream {
        private final OutputStream first;
        private final OutputStream second;

        Tee(OutputStream first, OutputStream second) {
            this.first = first;
            this.second = second;
        }

        @Override
        public synchronized void write(int b) throws IOException {
            first.write(b);
            second.write(b);
        }

        @Override
        public synchronized void write(byte[] b, int off, int len) throws IOException {
            first.write(b, off, len);
            second.write(b, off, len);
        }

        @Override
        public void flush() throws IOException {
            first.flush();
            second.flush();
        }
    }
}
