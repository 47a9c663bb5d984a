package dev.cryptopay.paymentlinks.paymentlink;

import dev.cryptopay.paymentlinks.config.PaymentLinksProperties;
import dev.cryptopay.paymentlinks.paymentlink.PaymentLinkChanges.Payment;
import dev.cryptopay.service.events.Transition;
import dev.cryptopay.service.money.Amounts;
import dev.cryptopay.service.outbox.DomainEvent;
import dev.cryptopay.service.outbox.OutboxWriter;
import java.time.Instant;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** Turns a link's move into payment events in the outbox; {@link PaymentLinkChanges} stores the move with them. */
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

    /**
     * The {@code data} of every payment event.
     *
     * @param amount the link amount as a decimal string
     * @param transactionHash null (and rendered as null) when the event has no transaction
     * @param metadata the link's webhook_metadata, {@code {}} when it has none
     * @param depositAddress where the link is paid (null when the merchant had no receiving key); with
     *     {@code chainId}, {@code tokenContract} (null for a native coin), {@code decimals}, {@code amountBaseUnits} and
     *     {@code expiresAt} it is what a chain watcher needs to watch for the payment
     * @param late true when the event is about a payment that arrived after the link stopped taking payments
     *     (the link's status did not change)
     */
    record PaymentEventData(
            String id,
            String amount,
            String currency,
            String status,
            String network,
            String transactionHash,
            JsonNode metadata,
            String paymentUrl,
            String orderId,
            String depositAddress,
            Long chainId,
            String tokenContract,
            Integer decimals,
            String amountBaseUnits,
            Instant expiresAt,
            boolean late) {}

    /**
     * Appends the move's events; call inside the transaction that saves the link.
     *
     * @param payment the transaction the events are about; null when they are about none
     */
    Mono<Void> append(Transition<PaymentLink> move, Payment payment, Instant now) {
        PaymentLink link = move.state();
        String transactionHash = payment == null ? null : payment.transactionHash();
        boolean late = payment != null && payment.late();
        return Flux.fromIterable(move.events())
                .concatMap(type -> outbox.append(
                        properties.topic(),
                        DomainEvent.of(
                                type,
                                now,
                                link.merchantId(),
                                link.mode(),
                                AGGREGATE_TYPE,
                                link.id().toString(),
                                data(link, transactionHash, late, now))))
                .then();
    }

    PaymentEventData data(PaymentLink link, String transactionHash, boolean late, Instant now) {
        ChainPayment payment = link.payment();
        return new PaymentEventData(
                link.id().toString(),
                Amounts.plainString(link.amount()),
                link.currency(),
                link.effectiveStatus(now).wireName(),
                link.network(),
                transactionHash,
                link.webhookMetadata() == null ? json.createObjectNode() : json.readTree(link.webhookMetadata()),
                properties.paymentUrl(link.id()),
                link.orderId(),
                payment == null ? null : payment.depositAddress(),
                payment == null ? null : payment.chainId(),
                payment == null ? null : payment.tokenContract(),
                payment == null ? null : payment.decimals(),
                payment == null ? null : payment.amountBaseUnits().toString(),
                link.expiresAt(),
                late);
    }
}
