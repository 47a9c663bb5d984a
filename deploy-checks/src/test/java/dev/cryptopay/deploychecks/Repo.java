package dev.cryptopay.deploychecks;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

/** The repository being checked: files, YAML and the six services. */
final class Repo {

    /** The services we build and deploy (each a Maven module of the same name). */
    static final List<String> SERVICES = List.of(
            "gateway",
            "payment-links-service",
            "subscriptions-service",
            "webhook-service",
            "chain-watcher",
            "notification-service");

    static final Path ROOT = findRoot();

    private Repo() {}

    private static Path findRoot() {
        Path dir = Path.of("").toAbsolutePath();
        while (dir != null) {
            if (Files.exists(dir.resolve("docker-compose.yml"))
                    && Files.exists(dir.resolve("pom.xml"))
                    && Files.isDirectory(dir.resolve("deploy"))) {
                return dir;
            }
            dir = dir.getParent();
        }
        throw new IllegalStateException("Repository root (with docker-compose.yml) not found above "
                + Path.of("").toAbsolutePath());
    }

    static Path path(String relative) {
        return ROOT.resolve(relative);
    }

    static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static String read(String relative) {
        Path file = path(relative);
        assertThat(file).as(relative).isRegularFile();
        return read(file);
    }

    static List<Path> walk(Path dir, String suffix) {
        try (Stream<Path> files = Files.walk(dir)) {
            return files.filter(Files::isRegularFile)
                    .filter(f -> f.getFileName().toString().endsWith(suffix))
                    .sorted()
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static String relative(Path file) {
        return ROOT.relativize(file.toAbsolutePath().normalize()).toString();
    }

    /** A YAML loader that refuses duplicate keys and builds only plain maps, lists and scalars. */
    static Yaml yaml() {
        LoaderOptions options = new LoaderOptions();
        options.setAllowDuplicateKeys(false);
        return new Yaml(new SafeConstructor(options));
    }

    static Map<String, Object> yamlMap(String text) {
        Object loaded = yaml().load(text);
        assertThat(loaded).isInstanceOf(Map.class);
        return map(loaded);
    }

    /** Every document of a (possibly multi-document) YAML file; empty documents are left out. */
    static List<Map<String, Object>> yamlDocuments(Path file) {
        List<Map<String, Object>> documents = new ArrayList<>();
        for (Object document : yaml().loadAll(read(file))) {
            if (document != null) {
                assertThat(document).as(relative(file)).isInstanceOf(Map.class);
                documents.add(map(document));
            }
        }
        return documents;
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> map(Object value) {
        return value == null ? Map.of() : (Map<String, Object>) value;
    }

    @SuppressWarnings("unchecked")
    static List<Object> list(Object value) {
        return value == null ? List.of() : (List<Object>) value;
    }

    @SuppressWarnings("unchecked")
    static List<Map<String, Object>> maps(Object value) {
        return value == null ? List.of() : (List<Map<String, Object>>) value;
    }

    /** Follows a path of keys through nested maps; null when any step is missing. */
    static Object at(Object root, String... keys) {
        Object current = root;
        for (String key : keys) {
            if (!(current instanceof Map<?, ?> m)) {
                return null;
            }
            current = m.get(key);
        }
        return current;
    }

    private static final Pattern COMPOSE_VARIABLE = Pattern.compile("\\$\\{([A-Z0-9_]+)(?::?-([^}]*))?}");

    /** Applies docker compose interpolation with an empty environment: {@code ${X:-default}} becomes the default. */
    static String interpolate(Object value) {
        String text = String.valueOf(value);
        Matcher matcher = COMPOSE_VARIABLE.matcher(text);
        StringBuilder result = new StringBuilder();
        while (matcher.find()) {
            matcher.appendReplacement(
                    result, Matcher.quoteReplacement(matcher.group(2) == null ? "" : matcher.group(2)));
        }
        matcher.appendTail(result);
        return result.toString();
    }

    /** A compose environment block (map or KEY=VALUE list) as a map, interpolated. */
    static Map<String, String> environment(Object block) {
        Map<String, String> env = new LinkedHashMap<>();
        if (block instanceof Map<?, ?> m) {
            m.forEach((k, v) -> env.put(String.valueOf(k), v == null ? "" : interpolate(v)));
        } else if (block instanceof List<?> l) {
            for (Object item : l) {
                String entry = String.valueOf(item);
                int eq = entry.indexOf('=');
                env.put(eq < 0 ? entry : entry.substring(0, eq), eq < 0 ? "" : interpolate(entry.substring(eq + 1)));
            }
        }
        return env;
    }

    /** The project version, from the root pom (the first {@code <version>} after the parent block). */
    static String projectVersion() {
        String pom = read("pom.xml");
        String afterParent = pom.substring(pom.indexOf("</parent>"));
        Matcher version = Pattern.compile("<version>([^<]+)</version>").matcher(afterParent);
        assertThat(version.find()).isTrue();
        return version.group(1);
    }
}
