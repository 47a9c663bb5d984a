package dev.cryptopay.deploychecks;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Metric names in PromQL expressions, and whether some module exports them. */
final class Metrics {

    /**
     * Metrics that no module's code names, because a framework exports them.
     * <ul>
     *   <li>{@code up}: Prometheus' own, one per scrape target;</li>
     *   <li>{@code http.server.requests}: Spring Boot's server request observation (every WebFlux service; verified
     *       on a running gateway to appear as {@code http_server_requests_seconds_count{status,uri,…}}).</li>
     * </ul>
     */
    static final Set<String> FRAMEWORK_METRICS = Set.of("up", "http.server.requests");

    private static final Set<String> KEYWORDS = Set.of(
            "and",
            "or",
            "unless",
            "bool",
            "offset",
            "by",
            "without",
            "on",
            "ignoring",
            "group_left",
            "group_right",
            "inf",
            "nan");
    private static final List<String> SERIES_SUFFIXES = List.of("_bucket", "_count", "_sum", "_max", "_total");
    private static final List<String> UNIT_SUFFIXES = List.of("_seconds", "_records", "_bytes");
    private static final Pattern IDENTIFIER = Pattern.compile("(?<![\\w.:])([a-zA-Z_:][a-zA-Z0-9_:]*)(\\s*\\()?");

    private static String exportedSource;

    private Metrics() {}

    /** The metric names an expression reads (functions, keywords, label names and values left out). */
    static Set<String> namesIn(String expr) {
        String stripped = expr.replaceAll("\"(?:[^\"\\\\]|\\\\.)*\"", " ") // strings (label values)
                .replaceAll("\\{[^}]*}", " ") // label matchers
                .replaceAll("\\[[^]]*]", " ") // ranges
                .replaceAll("\\b(by|without|on|ignoring|group_left|group_right)\\s*\\([^)]*\\)", " ");
        Set<String> names = new LinkedHashSet<>();
        Matcher matcher = IDENTIFIER.matcher(stripped);
        while (matcher.find()) {
            String word = matcher.group(1);
            boolean isCall = matcher.group(2) != null;
            if (!isCall && !KEYWORDS.contains(word)) {
                names.add(word);
            }
        }
        return names;
    }

    /**
     * The Micrometer names a Prometheus name may come from: Prometheus naming appends {@code _total} to counters,
     * the base unit ({@code _seconds}, {@code _records}) and {@code _count}/{@code _sum}/{@code _bucket}/
     * {@code _max} to timers and histograms, and turns dots into underscores.
     */
    static List<String> micrometerCandidates(String prometheusName) {
        List<String> bases = new ArrayList<>(List.of(prometheusName));
        for (String suffix : SERIES_SUFFIXES) {
            if (prometheusName.endsWith(suffix)) {
                bases.add(prometheusName.substring(0, prometheusName.length() - suffix.length()));
            }
        }
        List<String> withoutUnit = new ArrayList<>();
        for (String base : bases) {
            for (String unit : UNIT_SUFFIXES) {
                if (base.endsWith(unit)) {
                    withoutUnit.add(base.substring(0, base.length() - unit.length()));
                }
            }
        }
        bases.addAll(withoutUnit);
        return bases.stream().map(base -> base.replace('_', '.')).distinct().toList();
    }

    /** Whether a framework exports the metric or some module's main code names it (as a quoted Micrometer name). */
    static boolean isExported(String prometheusName) {
        for (String candidate : micrometerCandidates(prometheusName)) {
            if (FRAMEWORK_METRICS.contains(candidate) || exportedSource().contains("\"" + candidate + "\"")) {
                return true;
            }
        }
        return false;
    }

    private static synchronized String exportedSource() {
        if (exportedSource == null) {
            StringBuilder all = new StringBuilder();
            for (Path java : Repo.walk(Repo.ROOT, ".java")) {
                String path = Repo.relative(java).replace('\\', '/');
                if (path.contains("/src/main/java/")) {
                    all.append(Repo.read(java)).append('\n');
                }
            }
            exportedSource = all.toString();
        }
        return exportedSource;
    }
}
