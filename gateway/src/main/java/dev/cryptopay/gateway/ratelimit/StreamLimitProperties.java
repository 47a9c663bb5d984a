package dev.cryptopay.gateway.ratelimit;

import jakarta.validation.constraints.Positive;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.validation.annotation.Validated;

/**
 * How many customer status streams ({@code GET /checkout/payment_link/events}, {@code GET /checkout/subscribe/events})
 * this gateway instance keeps open at once for one client and for one link, so one address cannot take every stream
 * place of the services (each stream reads the database every couple of seconds). Beyond, 429 {@code too_many_streams}
 * with {@code Retry-After}; the page then polls the status route, which the per-client rate limit governs.
 *
 * @param maxPerClient open streams per client address (IPv4 address, IPv6 /64). Default 6: what a browser opens to
 *                     one host over HTTP/1.1 at most anyway.
 * @param maxPerLink   open streams per payment link or subscriber, over every client. Default 30: a reusable link
 *                     shown to many payers at once.
 */
@Validated
@ConfigurationProperties("gateway.streams")
public record StreamLimitProperties(
        @Positive Integer maxPerClient, @Positive Integer maxPerLink) {

    public StreamLimitProperties {
        maxPerClient = maxPerClient == null ? 6 : maxPerClient;
        maxPerLink = maxPerLink == null ? 30 : maxPerLink;
    }
}
