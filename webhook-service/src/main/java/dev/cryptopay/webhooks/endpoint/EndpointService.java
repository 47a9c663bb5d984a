package dev.cryptopay.webhooks.endpoint;

import dev.cryptopay.auth.Mode;
import dev.cryptopay.auth.internal.MerchantIdentity;
import dev.cryptopay.auth.webhook.WebhookSecret;
import dev.cryptopay.service.error.ApiException;
import dev.cryptopay.service.events.EventType;
import dev.cryptopay.service.request.Field;
import dev.cryptopay.service.request.JsonBody;
import dev.cryptopay.service.request.TextField;
import dev.cryptopay.service.request.Violations;
import dev.cryptopay.webhooks.address.AddressPolicy;
import dev.cryptopay.webhooks.config.WebhookProperties;
import java.net.URI;
import java.net.URISyntaxException;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Service;
import org.springframework.transaction.reactive.TransactionalOperator;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Registers, lists, enables and removes endpoints; the signing secret is shown once, at creation or rotation.
 */
@Service
public class EndpointService {

    private static final Logger log = LoggerFactory.getLogger(EndpointService.class);

    private final EndpointRepository endpoints;
    private final HeldDeliveries deliveries;
    private final TransactionalOperator tx;
    private final SecretCipher cipher;
    private final WebhookProperties properties;
    private final AddressPolicy addresses;
    private final JsonMapper json;
    private final Clock clock;
    private final SecureRandom random = new SecureRandom();

    public EndpointService(
            EndpointRepository endpoints,
            HeldDeliveries deliveries,
            TransactionalOperator tx,
            SecretCipher cipher,
            WebhookProperties properties,
            AddressPolicy addresses,
            JsonMapper json,
            Clock clock) {
        this.endpoints = endpoints;
        this.deliveries = deliveries;
        this.tx = tx;
        this.cipher = cipher;
        this.properties = properties;
        this.addresses = addresses;
        this.json = json;
        this.clock = clock;
    }

    /** A new endpoint and its secret (the only time the secret is returned). */
    public record Created(WebhookEndpoint endpoint, String secret) {}

    public Mono<Created> create(MerchantIdentity merchant, String body) {
        Instant now = clock.instant();
        return Mono.fromSupplier(() -> parse(merchant, body, now))
                .flatMap(endpoint -> endpoints.count(merchant).flatMap(count -> {
                    if (count >= properties.maxEndpointsPerMerchant()) {
                        return Mono.error(ApiException.conflict(
                                "endpoint_limit_reached",
                                "At most " + properties.maxEndpointsPerMerchant()
                                        + " webhook endpoints per merchant and mode"));
                    }
                    String secret = WebhookSecret.generate(random);
                    WebhookEndpoint stored = endpoint.withSecret(cipher.encrypt(endpoint.id(), secret));
                    return endpoints.insert(stored).thenReturn(new Created(stored, secret));
                }));
    }

    public Flux<WebhookEndpoint> list(MerchantIdentity merchant) {
        return endpoints.list(merchant);
    }

    public Mono<WebhookEndpoint> get(MerchantIdentity merchant, UUID id) {
        return endpoints.find(merchant, id).switchIfEmpty(Mono.error(EndpointService::notFound));
    }

    public Mono<WebhookEndpoint> delete(MerchantIdentity merchant, UUID id) {
        return get(merchant, id)
                .flatMap(endpoint ->
                        endpoints.delete(merchant, id, clock.instant()).thenReturn(endpoint));
    }

    /**
     * Enables a disabled endpoint again: its run of failures starts afresh and the deliveries held while it was
     * disabled are due now, in the same transaction. Enabling an enabled endpoint changes nothing.
     */
    public Mono<WebhookEndpoint> enable(MerchantIdentity merchant, UUID id) {
        Instant now = clock.instant();
        Mono<Long> enable = endpoints
                .enable(merchant, id, now)
                .filter(Boolean::booleanValue)
                .flatMap(enabled -> deliveries.resumeHeld(id, now));
        return get(merchant, id)
                .then(tx.transactional(enable))
                .doOnNext(rescheduled -> log.info(
                        "endpoint_enabled endpoint_id={} merchant_id={} mode={} rescheduled={}",
                        id,
                        merchant.merchantId(),
                        merchant.mode().wireName(),
                        rescheduled))
                .then(get(merchant, id));
    }

    /** Replaces the secret; deliveries signed from now on use the new one. */
    public Mono<Created> rotateSecret(MerchantIdentity merchant, UUID id) {
        String secret = WebhookSecret.generate(random);
        byte[] encrypted = cipher.encrypt(id, secret);
        return get(merchant, id)
                .flatMap(endpoint -> endpoints
                        .replaceSecret(merchant, id, encrypted, clock.instant())
                        .thenReturn(new Created(endpoint.withSecret(encrypted), secret)));
    }

    private static final TextField URL = Field.string("url").required().length(1, 2048);
    private static final TextField DESCRIPTION = Field.string("description").length(0, 500);
    /** The list of event types, read by {@link #events} (no declared field reads an array). */
    private static final String EVENTS = "events";
    /** The body's members: the declared fields and the event types. */
    private static final List<String> MEMBERS = Field.names(EVENTS, URL, DESCRIPTION);

    private WebhookEndpoint parse(MerchantIdentity merchant, String body, Instant now) {
        JsonNode root = JsonBody.object(json, body);
        Violations violations = new Violations();
        violations.rejectUnknown(root, "", MEMBERS);
        String url = URL.read(root, violations);
        if (url != null) {
            String problem = urlProblem(url, merchant.mode());
            if (problem != null) {
                violations.reject("url", problem);
            }
        }
        List<String> events = events(root, violations);
        String description = DESCRIPTION.read(root, violations);
        violations.throwIfAny();
        return WebhookEndpoint.registered(
                UUID.randomUUID(), merchant.merchantId(), merchant.mode(), url, description, events, null, now);
    }

    private String urlProblem(String url, Mode mode) {
        URI uri;
        try {
            uri = new URI(url);
        } catch (URISyntaxException e) {
            return "url must be a valid absolute URL";
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (uri.getHost() == null || !(scheme.equals("https") || scheme.equals("http"))) {
            return "url must be a valid absolute http(s) URL";
        }
        if (uri.getUserInfo() != null) {
            return "url must not contain credentials";
        }
        if (scheme.equals("http") && (mode == Mode.LIVE || !properties.allowHttpInTestMode())) {
            return mode == Mode.LIVE ? "url must use https in live mode" : "url must use https";
        }
        if (!addresses.isAllowedLiteral(uri.getHost())) {
            return "url must not point to a private, loopback or link-local address";
        }
        return null;
    }

    private static List<String> events(JsonNode root, Violations violations) {
        JsonNode node = root.get(EVENTS);
        if (node == null || node.isNull()) {
            violations.reject(EVENTS, "events is required");
            return List.of();
        }
        if (!node.isArray() || node.isEmpty()) {
            violations.reject(EVENTS, "events must be a non-empty array of event types");
            return List.of();
        }
        Set<String> types = new LinkedHashSet<>();
        List<String> unknown = new ArrayList<>();
        for (JsonNode type : node) {
            if (!type.isString() || !EventType.wireNames().contains(type.asString())) {
                unknown.add(type.isString() ? type.asString() : type.toString());
            } else {
                types.add(type.asString());
            }
        }
        if (!unknown.isEmpty()) {
            violations.reject(EVENTS, "Unknown event type: " + String.join(", ", unknown));
        }
        return List.copyOf(types);
    }

    static ApiException notFound() {
        return ApiException.notFound("Webhook endpoint not found");
    }
}
