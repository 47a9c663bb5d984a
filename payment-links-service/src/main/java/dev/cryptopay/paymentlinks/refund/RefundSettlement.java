package dev.cryptopay.paymentlinks.refund;

import dev.cryptopay.paymentlinks.paymentlink.LinkRefund;
import dev.cryptopay.paymentlinks.paymentlink.PaymentLink;
import dev.cryptopay.paymentlinks.paymentlink.PaymentLinkChanges;
import dev.cryptopay.paymentlinks.paymentlink.RefundFailure;
import dev.cryptopay.paymentlinks.paymentlink.RefundRepository;
import dev.cryptopay.paymentlinks.paymentlink.RefundStatus;
import dev.cryptopay.paymentlinks.transaction.TransactionRepository;
import dev.cryptopay.service.events.EventType;
import dev.cryptopay.service.events.Transition;
import java.time.Instant;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * The steps of a refund that the chain decides, each stored with its events in the caller's transaction (which holds
 * the link's row lock): an outgoing transfer of the deposit address pays it (pending, then completed once confirmed),
 * or a reorganisation takes that transfer away (failed).
 *
 * <p>Completing a refund returns money: the transfer it names, or the link's transfers of its asset (see
 * {@link RefundAllocation}), count its amount as refunded (a transfer all of whose amount is back reads
 * {@code refunded}), so what the link received no longer includes it. Then {@code transfer.completed}, and
 * {@code payment.refunded} unless the money was an unexpected asset, which never paid the link.
 */
@Component
public class RefundSettlement {

    private final RefundRepository refunds;
    private final TransactionRepository transactions;
    private final PaymentLinkChanges changes;
    private final TransferEvents events;

    RefundSettlement(
            RefundRepository refunds,
            TransactionRepository transactions,
            PaymentLinkChanges changes,
            TransferEvents events) {
        this.refunds = refunds;
        this.transactions = transactions;
        this.changes = changes;
        this.events = events;
    }

    /**
     * The outgoing transfer (hash, log index) pays {@code refund}: an open one, its own pending one now confirmed, or
     * one a reorganisation had failed that is on chain again. Pending: the refund waits for confirmations (no event);
     * confirmed: it is completed. Answers the refund after the step.
     */
    public Mono<LinkRefund> paid(
            PaymentLink link,
            LinkRefund refund,
            String txHash,
            int logIndex,
            int confirmations,
            boolean confirmed,
            Instant now) {
        if (refund.status() == RefundStatus.COMPLETED) {
            return Mono.just(refund);
        }
        LinkRefund moved = refund.paidBy(txHash, logIndex, confirmed, now);
        Mono<Void> completion = confirmed ? completed(link, moved, confirmations, now) : Mono.empty();
        return refunds.update(moved).then(completion).thenReturn(moved);
    }

    /** The pending transfer that paid {@code refund} was reorganised away: the refund fails, {@code transfer.failed}. */
    public Mono<LinkRefund> reorganised(PaymentLink link, LinkRefund refund, int confirmations, Instant now) {
        if (refund.status() != RefundStatus.PENDING) {
            return Mono.just(refund);
        }
        LinkRefund failed = refund.failed(RefundFailure.REORGANISED, now);
        return refunds.update(failed)
                .then(events.append(EventType.TRANSFER_FAILED, link, failed, confirmations, now))
                .thenReturn(failed);
    }

    private Mono<Void> completed(PaymentLink link, LinkRefund refund, int confirmations, Instant now) {
        return events.append(EventType.TRANSFER_COMPLETED, link, refund, confirmations, now)
                .then(
                        refund.transactionId() == null
                                ? returnLinkMoney(link, refund, now)
                                : returnTransfer(link, refund, now));
    }

    private Mono<Void> returnTransfer(PaymentLink link, LinkRefund refund, Instant now) {
        return transactions
                .lockOfLink(link.id(), refund.transactionId())
                .flatMap(transfer -> {
                    Transition<PaymentLink> move =
                            transfer.unexpectedAsset() ? Transition.unchanged(link) : link.refunded(now);
                    return transactions
                            .refunded(transfer.id(), refund.amount(), now)
                            .then(changes.save(move, transfer.refundedPayment(), refund, now));
                })
                .then();
    }

    private Mono<Void> returnLinkMoney(PaymentLink link, LinkRefund refund, Instant now) {
        return transactions
                .lockRefundable(link.id())
                .collectList()
                .flatMapMany(transfers -> Flux.fromIterable(
                        RefundAllocation.of(transfers, refund.amount()).entrySet()))
                .concatMap(part -> transactions.refunded(part.getKey(), part.getValue(), now))
                .then(Mono.defer(() -> changes.save(link.refunded(now), null, refund, now)))
                .then();
    }
}
