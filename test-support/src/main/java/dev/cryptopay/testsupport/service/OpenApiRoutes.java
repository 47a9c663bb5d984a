package dev.cryptopay.testsupport.service;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.springframework.web.reactive.result.method.annotation.RequestMappingHandlerMapping;
import org.yaml.snakeyaml.Yaml;

/**
 * The routes an OpenAPI description promises and the routes a service serves, both as sorted
 * {@code "METHOD /path/{var}"} strings, so a test can demand they are the same set: a hand-kept description then
 * cannot drift from the code.
 */
public final class OpenApiRoutes {

    private OpenApiRoutes() {}

    /** Every operation under {@code paths} of the OpenAPI 3.1 document at this classpath resource. */
    @SuppressWarnings("unchecked")
    public static Set<String> described(String resource) {
        Map<String, Object> document;
        try (InputStream in = OpenApiRoutes.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalArgumentException("no resource " + resource);
            }
            document = new Yaml().load(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        if (!"3.1.0".equals(document.get("openapi"))) {
            throw new AssertionError(resource + " is not an OpenAPI 3.1.0 document");
        }
        Set<String> operations = new TreeSet<>();
        ((Map<String, Map<String, Object>>) document.get("paths"))
                .forEach((path, item) -> item.keySet().stream()
                        .filter(key -> !key.equals("parameters")
                                && !key.equals("summary")
                                && !key.equals("description")
                                && !key.equals("servers"))
                        .forEach(method -> operations.add(method.toUpperCase(Locale.ROOT) + " " + path)));
        return operations;
    }

    /** Every method and path pattern of the service's annotated controllers. */
    public static Set<String> served(RequestMappingHandlerMapping mappings) {
        Set<String> operations = new TreeSet<>();
        mappings.getHandlerMethods()
                .keySet()
                .forEach(info -> info.getPatternsCondition()
                        .getPatterns()
                        .forEach(pattern -> info.getMethodsCondition()
                                .getMethods()
                                .forEach(method -> operations.add(method.name() + " " + pattern.getPatternString()))));
        return operations;
    }
}
