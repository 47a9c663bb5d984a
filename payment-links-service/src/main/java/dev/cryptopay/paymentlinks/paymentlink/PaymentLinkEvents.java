package dev.cryptopay.paymentlinks.paymentlink;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.cryptopay.paymentlinks.config.PaymentLinksProperties;
import dev.cryptopay.paymentlinks.paymentlink.PaymentLinkChanges.Payment;
import dev.cryptopay.service.events.EventType;
import dev.cryptopay.service.events.Notify;
import dev.cryptopay.service.events.Transition;
import dev.cryptopay.service.money.Amounts;
import dev.cryptopay.service.outbox.DomainEvent;
import dev.cryptopay.service.outbox.OutboxWriter;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** Turns a link's move into payment events in the outbox; {@link PaymentLinkChanges} stores the move with them. */
@Component
public class PaymentLinkEvents {

    /** The aggregate of every event about a link, its refunds and its deposit address included. */
    public static final String AGGREGATE_TYPE = "payment_link";

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
     *     (recorded on the link, counted for no use unless the merchant resolved it)
     * @param amountReceived what the link has received so far: the crypto amount of its confirmed transfers of its
     *     asset that arrived in time or that the merchant resolved (late ones otherwise, refunded ones and unexpected
     *     assets excluded); "0" when none
     * @param transactionAmount the amount of the event's own transfer, in its token; null without one
     * @param confirmations that transfer's confirmations as last reported; null without one
     * @param logIndex that transfer's log index in its block (-1 for the native coin), which with the hash identifies
     *     it; null without one
     * @param transactionTokenContract the token that transfer moved (lower case); null for the native coin and
     *     without a transfer
     * @param transactionAsset what that transfer moved, named for the merchant: the currency code when the catalogue
     *     knows it (the link's {@code currency} for a payment), else its contract; null without one
     * @param reason on {@code wallet.deposit} only ({@link DepositReason}); left out of every other event
     * @param refund on {@code payment.refunded} only: the refund completed; left out of every other event
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
            boolean late,
            String amountReceived,
            String transactionAmount,
            Integer confirmations,
            Integer logIndex,
            String transactionTokenContract,
            String transactionAsset,
            @JsonInclude(JsonInclude.Include.NON_NULL) String reason,
            @JsonInclude(JsonInclude.Include.NON_NULL) RefundData refund) {}

    /**
     * The refund a {@code payment.refunded} event is about: how much of which asset went back to {@code to_address},
     * and the outgoing transfer that carried it.
     *
     * @param transactionId the transfer refunded; null for a refund of the link's money
     * @param tokenContract the token returned (lower case); null for the native coin
     */
    record RefundData(
            String id,
            String transactionId,
            String amount,
            String asset,
            String tokenContract,
            String toAddress,
            String transactionHash,
            Integer logIndex) {

        static RefundData of(LinkRefund refund) {
            return new RefundData(
                    refund.id().toString(),
                    refund.transactionId() == null
                            ? null
                            : refund.transactionId().toString(),
                    Amounts.plainString(refund.amount()),
                    refund.asset(),
                    refund.tokenContract(),
                    refund.toAddress(),
                    refund.txHash(),
                    refund.logIndex());
        }
    }

    /**
     * Appends the move's events; call inside the transaction that saves the link.
     *
     * @param payment the transaction the events are about; null when they are about none
     * @param refund the refund completed, on {@code payment.refunded}; null otherwise
     * @param received what the link has received so far (see {@link PaymentEventData#amountReceived})
     */
    Mono<Void> append(
            Transition<PaymentLink> move, Payment payment, LinkRefund refund, BigDecimal received, Instant now) {
        return Flux.fromIterable(of(move, payment, refund, received, now))
                .concatMap(event -> outbox.append(topic(), event))
                .then();
    }

    /**
     * The events of a move, as {@link #append} writes them. A {@code payment.completed} of a link with a customer
     * e-mail names the customer in its {@code notify} member, for the receipt notification-service sends.
     */
    List<DomainEvent> of(
            Transition<PaymentLink> move, Payment payment, LinkRefund refund, BigDecimal received, Instant now) {
        PaymentLink link = move.state();
        return move.events().stream()
                .map(type -> DomainEvent.of(
                        type,
                        now,
                        link.merchantId(),
                        link.mode(),
                        AGGREGATE_TYPE,
                        link.id().toString(),
                        data(type, link, payment, refund, received, now)))
                .map(event -> event.type() == EventType.PAYMENT_COMPLETED
                        ? event.withNotify(Notify.customer(link.customerEmail(), link.customerName(), null))
                        : event)
                .toList();
    }

    /** The topic of every event about a link. */
    String topic() {
        return properties.topic();
    }

    private PaymentEventData data(
            EventType type,
            PaymentLink link,
            Payment transaction,
            LinkRefund refund,
            BigDecimal received,
            Instant now) {
        ChainPayment payment = link.payment();
        return new PaymentEventData(
                link.id().toString(),
                Amounts.plainString(link.amount()),
                link.currency(),
                link.effectiveStatus(now).wireName(),
                link.network(),
                transaction == null ? null : transaction.transactionHash(),
                link.webhookMetadata() == null ? json.createObjectNode() : json.readTree(link.webhookMetadata()),
                properties.paymentUrl(link.id()),
                link.orderId(),
                payment == null ? null : payment.depositAddress(),
                payment == null ? null : payment.chainId(),
                payment == null ? null : payment.tokenContract(),
                payment == null ? null : payment.decimals(),
                payment == null ? null : payment.amountBaseUnits().toString(),
                link.expiresAt(),
                transaction != null && transaction.late(),
                Amounts.plainString(received),
                transaction == null ? null : Amounts.plainString(transaction.amount()),
                transaction == null ? null : transaction.confirmations(),
                transaction == null ? null : transaction.logIndex(),
                transaction == null ? null : transaction.tokenContract(),
                transaction == null ? null : transaction.asset(),
                type == EventType.WALLET_DEPOSIT
                        ? depositReason(link, transaction).wireName()
                        : null,
                type == EventType.PAYMENT_REFUNDED && refund != null ? RefundData.of(refund) : null);
    }

    /** A wrong asset is never the link's, whenever it came; a late payment says why it came too late. */
    private static DepositReason depositReason(PaymentLink link, Payment transaction) {
        return transaction != null && transaction.unexpectedAsset()
                ? DepositReason.UNEXPECTED_ASSET
                : link.lateReason();
    }
}
