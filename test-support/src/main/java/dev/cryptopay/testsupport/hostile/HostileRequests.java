package dev.cryptopay.testsupport.hostile;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.WebTestClient;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Sends the {@link HostileCorpus} to a service's routes and checks each answer: a 2xx or 4xx (never a 5xx or no
 * answer), within the time limit, and on a 4xx no change to the caller's data. Every failing case is reported
 * together.
 *
 * <pre>{@code
 * HostileRequests.to((method, uri) -> asEncoded(merchant, method, uri))
 *         .state(MerchantRows.of("payment_links", merchant.merchantId()))
 *         .write(HttpMethod.POST, "/payment_links", "{\"payment_name\":\"Tea\",\"amount\":3,\"currency\":\"USDC\"}")
 *         .read("/payment_links", "page", "limit", "created_from")
 *         .run();
 * }</pre>
 */
public final class HostileRequests {

    /** Builds a request for a method and a path with its query exactly as encoded. */
    @FunctionalInterface
    public interface Sender {
        WebTestClient.RequestBodySpec request(HttpMethod method, String rawUri);
    }

    /** What one run sent: how many cases, and how many were answered with a 2xx and with a 4xx. */
    public record Report(int cases, int successes, int clientErrors) {}

    private record Case(String label, HttpMethod method, String uri, String body, MediaType type, String header) {}

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final Sender sender;
    private final List<Case> cases = new ArrayList<>();
    private Supplier<String> state = () -> "";
    private Duration timeLimit = Duration.ofSeconds(5);

    private HostileRequests(Sender sender) {
        this.sender = sender;
    }

    public static HostileRequests to(Sender sender) {
        return new HostileRequests(sender);
    }

    /**
     * The caller's data, compared before and after each 4xx (e.g. {@link MerchantRows}); closed at the end of
     * {@link #run()} when it is {@link AutoCloseable}.
     */
    public HostileRequests state(Supplier<String> state) {
        this.state = state;
        return this;
    }

    /** The longest any answer may take; 5 s unless set. */
    public HostileRequests timeLimit(Duration timeLimit) {
        this.timeLimit = timeLimit;
        return this;
    }

    /**
     * A route with a JSON body: every hostile body, every hostile value in place of each member of {@code validBody},
     * the valid body with each hostile header, and the valid body under wrong content types.
     */
    public HostileRequests write(HttpMethod method, String path, String validBody) {
        JsonNode valid = JSON.readTree(validBody);
        for (HostileCorpus.Entry body : HostileCorpus.bodies()) {
            cases.add(new Case("body " + body.name(), method, path, body.text(), MediaType.APPLICATION_JSON, null));
        }
        for (String member : valid.propertyNames()) {
            for (HostileCorpus.Entry value : HostileCorpus.values()) {
                String body = withMember(valid, member, value.text());
                cases.add(new Case(member + "=" + value.name(), method, path, body, MediaType.APPLICATION_JSON, null));
            }
        }
        for (HostileCorpus.Entry header : HostileCorpus.headers()) {
            cases.add(new Case(
                    "header " + header.name(), method, path, validBody, MediaType.APPLICATION_JSON, header.text()));
        }
        for (MediaType type : List.of(MediaType.TEXT_PLAIN, MediaType.APPLICATION_XML, MediaType.MULTIPART_FORM_DATA)) {
            cases.add(new Case("content type " + type, method, path, validBody, type, null));
        }
        return this;
    }

    /** A route read with a query: every hostile query string, and every hostile value in each named parameter. */
    public HostileRequests read(String path, String... parameters) {
        for (HostileCorpus.Entry query : HostileCorpus.queries()) {
            cases.add(new Case("query " + query.name(), HttpMethod.GET, path + "?" + query.text(), null, null, null));
        }
        for (String parameter : parameters) {
            for (HostileCorpus.Entry value : HostileCorpus.parameterValues()) {
                String uri = path + "?" + parameter + "=" + value.text();
                cases.add(new Case(parameter + "=" + value.name(), HttpMethod.GET, uri, null, null, null));
            }
        }
        for (HostileCorpus.Entry header : HostileCorpus.headers()) {
            cases.add(new Case("header " + header.name(), HttpMethod.GET, path, null, null, header.text()));
        }
        return this;
    }

    /**
     * A route with an id in its path: {@code template}'s {@code {id}} replaced by every hostile path segment, sent
     * with {@code validBody} (null for none).
     */
    public HostileRequests ids(HttpMethod method, String template, String validBody) {
        for (HostileCorpus.Entry segment : HostileCorpus.pathSegments()) {
            String uri = template.replace("{id}", segment.text());
            MediaType type = validBody == null ? null : MediaType.APPLICATION_JSON;
            cases.add(new Case("id " + segment.name(), method, uri, validBody, type, null));
        }
        return this;
    }

    /**
     * The management routes every service exposes: the whole health, its liveness and readiness groups, info and the
     * Prometheus scrape, each read with hostile queries and headers, and health groups named by every hostile segment.
     */
    public HostileRequests actuator() {
        return read("/actuator/health")
                .read("/actuator/health/liveness")
                .read("/actuator/health/readiness")
                .read("/actuator/info")
                .read("/actuator/prometheus")
                .ids(HttpMethod.GET, "/actuator/health/{id}", null);
    }

    /** Sends every case; throws one {@link AssertionError} listing each that failed. */
    public Report run() {
        try {
            return sendAll();
        } finally {
            if (state instanceof AutoCloseable closeable) {
                try {
                    closeable.close();
                } catch (Exception e) {
                    throw new IllegalStateException("cannot close the state read", e);
                }
            }
        }
    }

    private Report sendAll() {
        List<String> failures = new ArrayList<>();
        int successes = 0;
        int clientErrors = 0;
        String before = state.get();
        for (Case hostile : cases) {
            long started = System.nanoTime();
            int status;
            try {
                status = send(hostile);
            } catch (RuntimeException | AssertionError noAnswer) {
                failures.add(describe(hostile) + ": no answer (" + noAnswer.getMessage() + ")");
                continue;
            }
            Duration took = Duration.ofNanos(System.nanoTime() - started);
            String after = state.get();
            if (status >= 500 || status < 200 || (status >= 300 && status < 400)) {
                failures.add(describe(hostile) + ": answered " + status);
            } else if (took.compareTo(timeLimit) > 0) {
                failures.add(describe(hostile) + ": took " + took.toMillis() + " ms");
            } else if (status >= 400 && !after.equals(before)) {
                failures.add(describe(hostile) + ": answered " + status + " but changed the merchant's data");
            }
            if (status < 300) {
                successes++;
            } else if (status < 500) {
                clientErrors++;
            }
            before = after;
        }
        if (!failures.isEmpty()) {
            throw new AssertionError(failures.size() + " of " + cases.size() + " hostile requests failed:\n  "
                    + String.join("\n  ", failures));
        }
        return new Report(cases.size(), successes, clientErrors);
    }

    private int send(Case hostile) {
        WebTestClient.RequestBodySpec request = sender.request(hostile.method(), hostile.uri());
        if (hostile.header() != null) {
            int colon = hostile.header().indexOf(':');
            request = request.header(
                    hostile.header().substring(0, colon).trim(),
                    hostile.header().substring(colon + 1).trim());
        }
        WebTestClient.RequestHeadersSpec<?> ready = hostile.body() == null
                ? request
                : request.contentType(hostile.type()).bodyValue(hostile.body());
        return ready.exchange().expectBody().returnResult().getStatus().value();
    }

    private static String describe(Case hostile) {
        return hostile.method() + " " + abbreviate(hostile.uri()) + " [" + hostile.label() + "]";
    }

    private static String abbreviate(String text) {
        return text.length() <= 120 ? text : text.substring(0, 117) + "...";
    }

    /** The valid body's JSON text with one member's value replaced by raw JSON text, other members as they were. */
    private static String withMember(JsonNode valid, String member, String rawValue) {
        List<String> members = new ArrayList<>();
        for (Map.Entry<String, JsonNode> property : valid.properties()) {
            String value = property.getKey().equals(member) ? rawValue : JSON.writeValueAsString(property.getValue());
            members.add(JSON.writeValueAsString(property.getKey()) + ":" + value);
        }
        return "{" + String.join(",", members) + "}";
    }
}
