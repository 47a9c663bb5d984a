package dev.cryptopay.service.apidocs;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import org.springframework.core.io.Resource;
import org.springframework.http.MediaType;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.RouterFunctions;
import org.springframework.web.reactive.function.server.ServerResponse;

/**
 * {@code GET /openapi.yaml}: the service's own OpenAPI 3.1 document (its routes as merchants reach them through the
 * gateway, checked against the controllers by each service's {@code OpenApiDescriptionTest}), served without an
 * internal token so that the gateway can merge every service's part into the one document it serves at {@code
 * /openapi.json}. The document is read once at start-up: it is part of the build.
 */
public final class ApiDescriptionRoute {

    /** Where a service serves its part. */
    public static final String PATH = "/openapi.yaml";

    static final MediaType YAML = MediaType.parseMediaType("application/yaml");

    private ApiDescriptionRoute() {}

    /** The route serving {@code document} (a classpath resource such as {@code classpath:openapi/webhooks.yaml}). */
    public static RouterFunction<ServerResponse> serving(Resource document) {
        byte[] bytes = read(document);
        return RouterFunctions.route()
                .GET(PATH, request -> ServerResponse.ok().contentType(YAML).bodyValue(bytes))
                .build();
    }

    private static byte[] read(Resource document) {
        try (InputStream in = document.getInputStream()) {
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the API description " + document, e);
        }
    }
}
