package dev.cryptopay.gateway.routing;

import dev.cryptopay.auth.internal.InternalCallers;
import jakarta.validation.constraints.NotNull;
import java.net.URI;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.validation.annotation.Validated;

/**
 * Where the services behind the gateway listen and how long the gateway waits for them.
 *
 * @param paymentLinks    base URL of payment-links-service (receives {@code /payment_links/**}). Default
 *                        {@code http://127.0.0.1:8081}.
 * @param subscriptions   base URL of subscriptions-service (receives {@code /subscriptions/**}, {@code /subscriber/**},
 *                        {@code /invitations/**}, {@code /public/**}). Default {@code http://127.0.0.1:8082}.
 * @param webhooks        base URL of webhook-service (receives {@code /webhook-endpoints/**},
 *                        {@code /webhook-deliveries/**}, {@code /events/**}). Default {@code http://127.0.0.1:8083}.
 * @param notifications   base URL of notification-service (receives {@code /notifications/**}). Default
 *                        {@code http://127.0.0.1:8085}.
 * @param connectTimeout  how long to wait for a TCP connection to a service before answering 503. Default 2 s.
 * @param responseTimeout how long to wait for a service's response headers before answering 504. Default 30 s.
 */
@Validated
@ConfigurationProperties("gateway.upstreams")
public record UpstreamProperties(
        @NotNull URI paymentLinks,
        @NotNull URI subscriptions,
        @NotNull URI webhooks,
        @NotNull URI notifications,
        @NotNull Duration connectTimeout,
        @NotNull Duration responseTimeout) {

    public UpstreamProperties {
        paymentLinks = paymentLinks == null ? URI.create("http://127.0.0.1:8081") : paymentLinks;
        subscriptions = subscriptions == null ? URI.create("http://127.0.0.1:8082") : subscriptions;
        webhooks = webhooks == null ? URI.create("http://127.0.0.1:8083") : webhooks;
        notifications = notifications == null ? URI.create("http://127.0.0.1:8085") : notifications;
        connectTimeout = connectTimeout == null ? Duration.ofSeconds(2) : connectTimeout;
        responseTimeout = responseTimeout == null ? Duration.ofSeconds(30) : responseTimeout;
        for (URI uri : new URI[] {paymentLinks, subscriptions, webhooks, notifications}) {
            if (!"http".equals(uri.getScheme()) && !"https".equals(uri.getScheme())) {
                throw new IllegalArgumentException("gateway.upstreams.* must be http(s) URLs, got " + uri);
            }
        }
    }

    /**
     * The base URL of a service by its id ({@link InternalCallers}).
     *
     * @throws IllegalArgumentException for a service the gateway does not forward to
     */
    public URI of(String service) {
        return switch (service) {
            case InternalCallers.PAYMENT_LINKS_SERVICE -> paymentLinks;
            case InternalCallers.SUBSCRIPTIONS_SERVICE -> subscriptions;
            case InternalCallers.WEBHOOK_SERVICE -> webhooks;
            case InternalCallers.NOTIFICATION_SERVICE -> notifications;
            default -> throw new IllegalArgumentException("The gateway forwards nothing to " + service);
        };
    }
}
