package dev.cryptopay.gateway.apidocs;

import dev.cryptopay.gateway.apidocs.ApiDescriptionMerger.Part;
import dev.cryptopay.service.apidocs.ApiDescriptionRoute;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import tools.jackson.databind.json.JsonMapper;

/**
 * The merged API description as JSON: the gateway's part ({@code classpath:openapi/gateway.yaml}) and each service's
 * part, read from the service's {@code GET /openapi.yaml} so that the document describes the services as deployed. A
 * complete document is kept for a minute; one missing a part (a service down or slow) is served as such, marked
 * {@code x-unavailable-parts}, and kept for five seconds only.
 */
public final class ApiDescription {

    /** A service whose part is merged: its name, the prefix of its clashing component names, where it runs. */
    public record Source(String service, String prefix, URI baseUri) {}

    static final Duration COMPLETE_FOR = Duration.ofMinutes(1);
    static final Duration INCOMPLETE_FOR = Duration.ofSeconds(5);
    private static final Duration FETCH_TIMEOUT = Duration.ofSeconds(3);
    private static final Logger log = LoggerFactory.getLogger(ApiDescription.class);

    private final Map<String, Object> gatewayPart;
    private final List<Source> sources;
    private final JsonMapper json;
    private final Clock clock;
    private final HttpClient http;
    private final Mono<Cached> document;

    public ApiDescription(List<Source> sources, JsonMapper json, Clock clock) {
        this.sources = List.copyOf(sources);
        this.json = json;
        this.clock = clock;
        this.gatewayPart = readGatewayPart();
        this.http = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(FETCH_TIMEOUT)
                .build();
        // Requests that arrive while the parts are being read share that one reading.
        this.document = Flux.fromIterable(this.sources)
                .flatMapSequential(source -> fetch(source)
                        .map(Optional::of)
                        .defaultIfEmpty(Optional.empty())
                        .map(part -> new Fetched(source, part)))
                .collectList()
                .map(this::merge)
                .cacheInvalidateIf(cached -> !clock.instant().isBefore(cached.until()));
    }

    /** The merged document, serialized as JSON. */
    public Mono<byte[]> json() {
        return document.map(Cached::json);
    }

    private Cached merge(List<Fetched> fetched) {
        List<Part> parts = new ArrayList<>();
        List<String> unavailable = new ArrayList<>();
        for (Fetched one : fetched) {
            one.part()
                    .ifPresentOrElse(
                            document -> parts.add(new Part(
                                    one.source().service(), one.source().prefix(), document)),
                            () -> unavailable.add(one.source().service()));
        }
        byte[] document = json.writeValueAsBytes(ApiDescriptionMerger.merge(gatewayPart, parts, unavailable));
        Instant until = clock.instant().plus(unavailable.isEmpty() ? COMPLETE_FOR : INCOMPLETE_FOR);
        return new Cached(document, until);
    }

    /** The service's part, or empty (logged) when it cannot be read. */
    private Mono<Map<String, Object>> fetch(Source source) {
        URI uri = source.baseUri().resolve(ApiDescriptionRoute.PATH);
        HttpRequest request =
                HttpRequest.newBuilder(uri).timeout(FETCH_TIMEOUT).GET().build();
        return Mono.fromFuture(() -> http.sendAsync(request, HttpResponse.BodyHandlers.ofByteArray()))
                .flatMap(response -> {
                    if (response.statusCode() != 200) {
                        log.warn(
                                "API description of {} not read: {} answered {}",
                                source.service(),
                                uri,
                                response.statusCode());
                        return Mono.empty();
                    }
                    return Mono.just(PartReader.read(new ByteArrayInputStream(response.body())));
                })
                .onErrorResume(e -> {
                    log.warn("API description of {} not read from {}: {}", source.service(), uri, e.toString());
                    return Mono.empty();
                });
    }

    private Map<String, Object> readGatewayPart() {
        try (InputStream in = ApiDescription.class.getResourceAsStream("/openapi/gateway.yaml")) {
            if (in == null) {
                throw new IllegalStateException("openapi/gateway.yaml is missing from the gateway's classpath");
            }
            return PartReader.read(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private record Fetched(Source source, Optional<Map<String, Object>> part) {}

    private record Cached(byte[] json, Instant until) {}
}
