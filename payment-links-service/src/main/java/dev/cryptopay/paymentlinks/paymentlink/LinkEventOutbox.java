package dev.cryptopay.paymentlinks.paymentlink;

import dev.cryptopay.paymentlinks.config.PaymentLinksProperties;
import dev.cryptopay.service.events.EventType;
import dev.cryptopay.service.outbox.DomainEvent;
import dev.cryptopay.service.outbox.OutboxWriter;
import java.time.Instant;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Writes the events about a link that other features build (a refund's {@code transfer.*}, {@code wallet.withdrawal})
 * to the outbox, in the caller's transaction, as events of the link: aggregate {@link PaymentLinkEvents#AGGREGATE_TYPE}
 * keyed by the link's id, so they keep its order.
 */
@Component
public class LinkEventOutbox {

    private final OutboxWriter outbox;
    private final PaymentLinksProperties properties;
    private final JsonMapper json;

    public LinkEventOutbox(OutboxWriter outbox, PaymentLinksProperties properties, JsonMapper json) {
        this.outbox = outbox;
        this.properties = properties;
        this.json = json;
    }

    /** Appends one event of {@code type} about {@code link} with {@code data} as its {@code data}. */
    public Mono<Void> append(EventType type, PaymentLink link, Object data, Instant now) {
        return outbox.append(
                properties.topic(),
                DomainEvent.of(
                        type,
                        now,
                        link.merchantId(),
                        link.mode(),
                        PaymentLinkEvents.AGGREGATE_TYPE,
                        link.id().toString(),
                        data));
    }

    /** The {@code metadata} of an event about the link: its {@code webhook_metadata}, {@code {}} when it has none. */
    public JsonNode metadata(PaymentLink link) {
        return link.webhookMetadata() == null ? json.createObjectNode() : json.readTree(link.webhookMetadata());
    }
}
