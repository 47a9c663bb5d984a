package dev.cryptopay.paymentlinks.paymentlink;

import dev.cryptopay.paymentlinks.config.PaymentLinksProperties;
import dev.cryptopay.service.outbox.DomainEvent;
import dev.cryptopay.service.outbox.OutboxWriter;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import tools.jackson.databind.json.JsonMapper;

/**
 * Turns a link's transition into payment events in the outbox. Event data: id, amount (string), currency, status,
 * network, transaction_hash, metadata (the link's webhook_metadata), payment_url and order_id.
 */
@Component
public class PaymentLinkEvents {

    static final String AGGREGATE_TYPE = "payment_link";

    private final OutboxWriter outbox;
    private final PaymentLinksProperties properties;
    private final JsonMapper json;

    public PaymentLinkEvents(OutboxWriter outbox, PaymentLinksProperties properties, JsonMapper json) {
        this.outbox = outbox;
        this.properties = properties;
        this.json = json;
    }

    /** Appends the transition's events; call inside the transaction that saves the link. */
    public Mono<Void> append(Transition transition, String transactionHash, Instant now) {
        PaymentLink link = transition.link();
        List<String> types = transition.events();
        return Flux.fromIterable(types)
                .concatMap(type -> outbox.append(
                        properties.topic(),
                        DomainEvent.of(
                                type,
                                now,
                                link.merchantId(),
                                link.mode(),
                                AGGREGATE_TYPE,
                                link.id().toString(),
                                data(link, transactionHash, now))))
                .then();
    }

    Map<String, Object> data(PaymentLink link, String transactionHash, Instant now) {
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("id", link.id().toString());
        data.put("amount", PaymentLinkJson.exact(link.amount()).toPlainString());
        data.put("currency", link.currency());
        data.put("status", link.effectiveStatus(now).wireName());
        data.put("network", link.network());
        data.put("transaction_hash", transactionHash);
        data.put(
                "metadata",
                link.webhookMetadata() == null ? Map.of() : json.readValue(link.webhookMetadata(), Map.class));
        data.put("payment_url", properties.paymentUrl(link.id()));
        data.put("order_id", link.orderId());
        return data;
    }
}
