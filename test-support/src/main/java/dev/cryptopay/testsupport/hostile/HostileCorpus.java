package dev.cryptopay.testsupport.hostile;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The committed corpus under {@code src/main/resources/hostile/}: one case per line, {@code name<TAB>text}; blank lines
 * and lines starting with {@code #} are comments. A line's text is used exactly as written (bodies and JSON values
 * as JSON text, query strings already percent-encoded, headers as {@code Name: value}).
 */
public final class HostileCorpus {

    /** One named corpus entry. */
    public record Entry(String name, String text) {}

    private HostileCorpus() {}

    /** Whole request bodies ({@code hostile/bodies.txt}). */
    public static List<Entry> bodies() {
        return load("bodies.txt");
    }

    /** JSON values put in place of each field of a valid body ({@code hostile/values.txt}). */
    public static List<Entry> values() {
        return load("values.txt");
    }

    /** Raw, percent-encoded query strings ({@code hostile/queries.txt}). */
    public static List<Entry> queries() {
        return load("queries.txt");
    }

    /** Single query parameter values, percent-encoded, tried in each parameter a route reads. */
    public static List<Entry> parameterValues() {
        return load("parameter-values.txt");
    }

    /** Path segments, percent-encoded, put where a route expects an id ({@code hostile/path-segments.txt}). */
    public static List<Entry> pathSegments() {
        return load("path-segments.txt");
    }

    /** Extra request headers ({@code hostile/headers.txt}). */
    public static List<Entry> headers() {
        return load("headers.txt");
    }

    private static List<Entry> load(String file) {
        try (InputStream in = HostileCorpus.class.getResourceAsStream("/hostile/" + file)) {
            if (in == null) {
                throw new IllegalStateException("missing corpus file hostile/" + file);
            }
            List<Entry> entries = new ArrayList<>();
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n", -1)) {
                if (line.isBlank() || line.startsWith("#")) {
                    continue;
                }
                int tab = line.indexOf('\t');
                if (tab < 1) {
                    throw new IllegalStateException(
                            "corpus line without name<TAB>text in hostile/" + file + ": " + line);
                }
                entries.add(new Entry(line.substring(0, tab), line.substring(tab + 1)));
            }
            return List.copyOf(entries);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
