package dev.cryptopay.paymentlinks.refund;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.cryptopay.paymentlinks.paymentlink.LinkEventOutbox;
import dev.cryptopay.paymentlinks.paymentlink.LinkRefund;
import dev.cryptopay.paymentlinks.paymentlink.PaymentLink;
import dev.cryptopay.service.events.EventType;
import dev.cryptopay.service.money.Amounts;
import java.time.Instant;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;

/**
 * Writes a refund's {@code transfer.initiated}, {@code transfer.completed} and {@code transfer.failed} events to the
 * outbox, in the caller's transaction, as events of the link (so they keep its order).
 */
@Component
class TransferEvents {

    private final LinkEventOutbox outbox;

    TransferEvents(LinkEventOutbox outbox) {
        this.outbox = outbox;
    }

    /**
     * The {@code data} of every {@code transfer.*} event: the refund after the step (every member present, null
     * without a value). With {@code deposit_address}, {@code chain_id}, {@code network}, {@code token_contract},
     * {@code decimals}, {@code to_address}, {@code amount_base_units} and {@code expires_at} a chain watcher knows which
     * outgoing transfer of the deposit address pays it, and until when to look.
     *
     * @param transactionId   the transfer refunded; null for a refund of the link's money
     * @param status          the refund's status after the step: initiated, completed or failed
     * @param amount          whole units of {@code asset}, a decimal string
     * @param tokenContract   the token refunded, lower case; null for the native coin
     * @param depositAddress  the link's deposit address, which pays the refund
     * @param paymentUri      the EIP-681 request the merchant's wallet pays
     * @param transactionHash the outgoing transfer that paid it; null on {@code transfer.initiated} and when abandoned
     * @param logIndex        that transfer's log index (-1 for the native coin); null with {@code transactionHash}
     * @param confirmations   that transfer's confirmations as last reported; null without one
     * @param metadata        the link's {@code webhook_metadata}, {@code {}} when it has none
     * @param reason          on {@code transfer.failed} only: {@code abandoned} or {@code reorganised}
     */
    record TransferEventData(
            String refundId,
            String paymentLinkId,
            String transactionId,
            String status,
            String amount,
            String asset,
            String network,
            long chainId,
            String tokenContract,
            int decimals,
            String amountBaseUnits,
            String depositAddress,
            String toAddress,
            String paymentUri,
            Instant expiresAt,
            String transactionHash,
            Integer logIndex,
            Integer confirmations,
            String orderId,
            JsonNode metadata,
            @JsonInclude(JsonInclude.Include.NON_NULL) String reason) {}

    /**
     * Appends one event about {@code refund} (as it is after the step) of {@code link}.
     *
     * @param confirmations of the transfer that paid it, as last reported; null without one
     */
    Mono<Void> append(EventType type, PaymentLink link, LinkRefund refund, Integer confirmations, Instant now) {
        TransferEventData data = new TransferEventData(
                refund.id().toString(),
                link.id().toString(),
                refund.transactionId() == null ? null : refund.transactionId().toString(),
                refund.status().wireName(),
                Amounts.plainString(refund.amount()),
                refund.asset(),
                refund.network(),
                refund.chainId(),
                refund.tokenContract(),
                refund.decimals(),
                Amounts.tokenUnits(refund.amountBaseUnits()),
                refund.fromAddress(),
                refund.toAddress(),
                refund.paymentUri(),
                refund.expiresAt(),
                refund.txHash(),
                refund.logIndex(),
                refund.txHash() == null ? null : confirmations,
                link.orderId(),
                outbox.metadata(link),
                type == EventType.TRANSFER_FAILED && refund.failure() != null
                        ? refund.failure().wireName()
                        : null);
        return outbox.append(type, link, data, now);
    }
}
