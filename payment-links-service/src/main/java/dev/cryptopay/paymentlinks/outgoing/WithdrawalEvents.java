package dev.cryptopay.paymentlinks.outgoing;

import dev.cryptopay.paymentlinks.paymentlink.LinkEventOutbox;
import dev.cryptopay.paymentlinks.paymentlink.PaymentLink;
import dev.cryptopay.service.events.EventType;
import dev.cryptopay.service.money.Amounts;
import java.time.Instant;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;

/** Writes {@code wallet.withdrawal}: a confirmed transfer out of a deposit address that paid no refund. */
@Component
class WithdrawalEvents {

    private final LinkEventOutbox outbox;

    WithdrawalEvents(LinkEventOutbox outbox) {
        this.outbox = outbox;
    }

    /**
     * The {@code data} of {@code wallet.withdrawal} (every member present, null without a value).
     *
     * @param paymentLinkId   the link whose deposit address the money left
     * @param tokenContract   the token that left, lower case; null for the native coin
     * @param asset           its currency code when the service knows it, else its contract
     * @param amount          whole units of {@code asset}, a decimal string
     * @param transactionHash with {@code logIndex} (-1 for the native coin), the transfer
     * @param metadata        the link's {@code webhook_metadata}, {@code {}} when it has none
     */
    record WithdrawalEventData(
            String paymentLinkId,
            String depositAddress,
            String network,
            Long chainId,
            String tokenContract,
            String asset,
            String amount,
            String toAddress,
            String transactionHash,
            int logIndex,
            int confirmations,
            String orderId,
            JsonNode metadata) {}

    Mono<Void> append(PaymentLink link, OutgoingTransfer transfer, Instant now) {
        WithdrawalEventData data = new WithdrawalEventData(
                link.id().toString(),
                link.payment() == null ? transfer.fromAddress() : link.payment().depositAddress(),
                transfer.network(),
                link.payment() == null ? null : link.payment().chainId(),
                transfer.tokenContract(),
                transfer.asset(),
                Amounts.plainString(transfer.cryptoAmount()),
                transfer.toAddress(),
                transfer.txHash(),
                transfer.logIndex(),
                transfer.confirmations(),
                link.orderId(),
                outbox.metadata(link));
        return outbox.append(EventType.WALLET_WITHDRAWAL, link, data, now);
    }
}
