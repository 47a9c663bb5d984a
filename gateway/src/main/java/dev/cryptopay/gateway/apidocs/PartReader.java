package dev.cryptopay.gateway.apidocs;

import java.io.InputStream;
import java.util.Map;
import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.nodes.Tag;
import org.yaml.snakeyaml.representer.Representer;
import org.yaml.snakeyaml.resolver.Resolver;

/**
 * Reads an OpenAPI part as plain maps and lists with SnakeYAML, which resolves the anchors and aliases a hand-kept
 * document uses, but keeps timestamps as the strings they are written as (a {@code created_at} example must stay
 * {@code "2026-01-01T12:00:00Z"}, not become a date).
 */
final class PartReader {

    private static final int MAX_CODE_POINTS = 16 * 1024 * 1024;
    private static final int MAX_ALIASES = 1_000;

    private PartReader() {}

    static Map<String, Object> read(InputStream in) {
        LoaderOptions options = new LoaderOptions();
        options.setCodePointLimit(MAX_CODE_POINTS);
        options.setMaxAliasesForCollections(MAX_ALIASES);
        DumperOptions dumper = new DumperOptions();
        Yaml yaml = new Yaml(
                new SafeConstructor(options), new Representer(dumper), dumper, options, new WithoutTimestamps());
        Object document = yaml.load(in);
        if (!(document instanceof Map<?, ?>)) {
            throw new IllegalArgumentException("an OpenAPI document is a mapping, not " + document);
        }
        @SuppressWarnings("unchecked")
        Map<String, Object> map = (Map<String, Object>) document;
        return map;
    }

    /** YAML 1.1's implicit types but timestamps. */
    private static final class WithoutTimestamps extends Resolver {

        @Override
        protected void addImplicitResolvers() {
            addImplicitResolver(Tag.BOOL, BOOL, "yYnNtTfFoO");
            addImplicitResolver(Tag.INT, INT, "-+0123456789");
            addImplicitResolver(Tag.FLOAT, FLOAT, "-+0123456789.");
            addImplicitResolver(Tag.MERGE, MERGE, "<");
            addImplicitResolver(Tag.NULL, NULL, "~nN\0");
            addImplicitResolver(Tag.NULL, EMPTY, null);
        }
    }
}
