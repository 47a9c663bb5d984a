package dev.cryptopay.paymentlinks.transaction;

import dev.cryptopay.auth.internal.MerchantIdentity;
import dev.cryptopay.paymentlinks.paymentlink.PaymentLink;
import dev.cryptopay.paymentlinks.paymentlink.PaymentLinkChanges;
import dev.cryptopay.paymentlinks.paymentlink.PaymentLinkRepository;
import dev.cryptopay.paymentlinks.paymentlink.PaymentLinkService;
import dev.cryptopay.paymentlinks.paymentlink.PaymentLinkView;
import dev.cryptopay.service.error.ApiException;
import dev.cryptopay.service.events.Transition;
import dev.cryptopay.service.money.Amounts;
import java.time.Clock;
import java.time.Instant;
import java.util.UUID;
import org.springframework.stereotype.Service;
import org.springframework.transaction.reactive.TransactionalOperator;
import reactor.core.publisher.Mono;

/**
 * Records what a checkout or chain watcher saw on chain and drives the link through its aggregate. Reports are
 * idempotent on (network, tx_hash): the same report again changes nothing; a pending transaction may later be
 * reported confirmed or failed; any other change of a recorded transaction is refused with 409.
 *
 * <p>A transaction the link can no longer count is <em>late</em>: first seen when the link no longer took payments,
 * or confirmed after its uses were taken or it was cancelled. It is recorded and completes nothing; once confirmed it
 * is a {@code wallet.deposit}, until the merchant {@linkplain #resolve resolves} it into a use.
 */
@Service
public class TransactionService {

    private final PaymentLinkRepository links;
    private final TransactionRepository transactions;
    private final PaymentLinkChanges changes;
    private final PaymentLinkService paymentLinks;
    private final TransactionalOperator tx;
    private final Clock clock;

    public TransactionService(
            PaymentLinkRepository links,
            TransactionRepository transactions,
            PaymentLinkChanges changes,
            PaymentLinkService paymentLinks,
            TransactionalOperator tx,
            Clock clock) {
        this.links = links;
        this.transactions = transactions;
        this.changes = changes;
        this.paymentLinks = paymentLinks;
        this.tx = tx;
        this.clock = clock;
    }

    /** The transaction as stored and the link after the report; {@code created} tells a new record from a repeat. */
    public record Recorded(LinkTransaction transaction, PaymentLink link, boolean created) {}

    public Mono<Recorded> record(UUID linkId, TransactionReport report) {
        Instant now = clock.instant();
        Mono<Recorded> work = links.lockAnyMerchant(linkId)
                .switchIfEmpty(Mono.error(() -> ApiException.notFound("Payment link not found")))
                .flatMap(link -> transactions
                        .lock(report.network(), report.txHash())
                        .map(existing -> update(link, existing, report, now))
                        .switchIfEmpty(Mono.fromSupplier(() -> create(link, report, now)))
                        .flatMap(change -> change));
        return tx.transactional(work);
    }

    public Mono<Recorded> refund(UUID linkId, RefundReport refund) {
        Instant now = clock.instant();
        Mono<Recorded> work = links.lockAnyMerchant(linkId)
                .switchIfEmpty(Mono.error(() -> ApiException.notFound("Payment link not found")))
                .flatMap(link -> transactions
                        .lock(refund.network(), refund.txHash())
                        .filter(found -> found.paymentLinkId().equals(link.id()))
                        .switchIfEmpty(Mono.error(() -> ApiException.notFound("Transaction not found for this link")))
                        .flatMap(found -> {
                            if (found.status() == TransactionStatus.REFUNDED) {
                                return Mono.just(new Recorded(found, link, false));
                            }
                            if (found.status() != TransactionStatus.CONFIRMED) {
                                throw ApiException.conflict(
                                        "illegal_transition",
                                        "Only a confirmed transaction can be refunded; this one is "
                                                + found.status().wireName());
                            }
                            LinkTransaction refunded = found.withStatus(
                                    TransactionStatus.REFUNDED, found.confirmations(), found.countedAsUse(), now);
                            return save(link.refunded(now), refunded, false, now);
                        }));
        return tx.transactional(work);
    }

    private Mono<Recorded> create(PaymentLink link, TransactionReport report, Instant now) {
        LinkTransaction recorded = new LinkTransaction(
                UUID.randomUUID(),
                link.id(),
                report.network(),
                report.txHash(),
                report.payerAddress(),
                report.cryptoAmount(),
                report.fiatAmount(),
                report.status(),
                report.confirmations(),
                report.requiredConfirmations(),
                false,
                !link.acceptsPayments(now),
                now,
                now);
        if (report.status() == TransactionStatus.REFUNDED) {
            throw ApiException.badRequest(
                    "invalid_status", "Record the transaction first; refunds go to the refunds route");
        }
        if (recorded.late()) {
            return save(latePayment(link, report.status()), recorded, true, now);
        }
        Mono<Boolean> covers =
                report.status() == TransactionStatus.CONFIRMED ? covers(link, recorded) : Mono.just(Boolean.FALSE);
        return Mono.zip(transactions.othersPending(link.id(), recorded.id()), covers)
                .flatMap(found -> {
                    boolean othersPending = found.getT1();
                    Transition<PaymentLink> move = switch (report.status()) {
                        case PENDING -> link.transactionPending(now);
                        case CONFIRMED -> link.transactionConfirmed(false, found.getT2(), othersPending, now);
                        default -> link.transactionFailed(othersPending, now);
                    };
                    LinkTransaction stored = counted(recorded, move, link);
                    return consumePartials(stored, now).then(save(move, stored, true, now));
                });
    }

    private Mono<Recorded> update(PaymentLink link, LinkTransaction existing, TransactionReport report, Instant now) {
        if (!existing.paymentLinkId().equals(link.id())) {
            throw ApiException.conflict(
                    "transaction_conflict", "This transaction is already recorded against another payment link");
        }
        if (existing.status() == report.status()) {
            return progressed(link, existing, report, now);
        }
        if (existing.status() != TransactionStatus.PENDING || report.status() == TransactionStatus.REFUNDED) {
            throw ApiException.conflict(
                    "illegal_transition",
                    "Transaction is already " + existing.status().wireName() + " and cannot become "
                            + report.status().wireName());
        }
        LinkTransaction changed = existing.withStatus(report.status(), report.confirmations(), false, now)
                .withProgress(report.confirmations(), report.requiredConfirmations(), now);
        if (existing.late()) {
            return save(latePayment(link, report.status()), changed, false, now);
        }
        if (report.status() == TransactionStatus.CONFIRMED && !link.countsConfirmation(true, now)) {
            // Seen in time, but another payment took the last use (or the merchant cancelled) before it confirmed.
            return save(link.latePaymentConfirmed(), changed.asLate(now), false, now);
        }
        Mono<Boolean> covers =
                report.status() == TransactionStatus.CONFIRMED ? covers(link, changed) : Mono.just(Boolean.FALSE);
        return Mono.zip(transactions.othersPending(link.id(), existing.id()), covers)
                .flatMap(found -> {
                    Transition<PaymentLink> move = report.status() == TransactionStatus.CONFIRMED
                            ? link.transactionConfirmed(true, found.getT2(), found.getT1(), now)
                            : link.transactionFailed(found.getT1(), now);
                    LinkTransaction stored = counted(changed, move, link);
                    return consumePartials(stored, now).then(save(move, stored, false, now));
                });
    }

    /**
     * The merchant accepts a late payment as one use of its link: the transaction must be late, confirmed and cover
     * the link amount on its own (late partial payments are not added up). It is marked as counted, the link counts
     * the use ({@link PaymentLink#latePaymentResolved}) and {@code payment.completed} is written, in one transaction.
     * Resolving it again answers the link without a change or an event. 404 when the link is not the merchant's or
     * the transaction not the link's; 409 {@code not_late}, {@code not_confirmed} or {@code insufficient_amount}.
     */
    public Mono<PaymentLinkView> resolve(MerchantIdentity merchant, UUID linkId, String txHash) {
        Instant now = clock.instant();
        Mono<PaymentLinkView> work = links.lock(merchant, linkId)
                .switchIfEmpty(Mono.error(() -> ApiException.notFound("Payment link not found")))
                .flatMap(link -> transactions
                        .lockOfLink(link.id(), txHash)
                        .switchIfEmpty(Mono.error(() -> ApiException.notFound("Transaction not found for this link")))
                        .flatMap(found -> resolve(link, found, now)))
                .then(Mono.defer(() -> paymentLinks.get(merchant, linkId)));
        return tx.transactional(work);
    }

    private Mono<PaymentLink> resolve(PaymentLink link, LinkTransaction found, Instant now) {
        if (!found.late()) {
            throw ApiException.conflict(
                    "not_late", "This transaction was not late: it was counted for the link when it confirmed");
        }
        if (found.countedAsUse()) {
            return Mono.just(link);
        }
        if (found.status() != TransactionStatus.CONFIRMED) {
            throw ApiException.conflict(
                    "not_confirmed",
                    "Only a confirmed transaction can be resolved; this one is "
                            + found.status().wireName());
        }
        if (found.cryptoAmount().compareTo(link.amount()) < 0) {
            throw ApiException.conflict(
                    "insufficient_amount",
                    "The transaction's amount (" + Amounts.plainString(found.cryptoAmount())
                            + ") does not cover the link amount (" + Amounts.plainString(link.amount()) + ")");
        }
        LinkTransaction resolved = found.withStatus(found.status(), found.confirmations(), true, now);
        return transactions.update(resolved).then(changes.save(link.latePaymentResolved(now), resolved.payment(), now));
    }

    /**
     * The same status again: a repeat changes nothing, except that a pending transaction takes the newer
     * confirmation counts (no event; the checkout shows them).
     */
    private Mono<Recorded> progressed(
            PaymentLink link, LinkTransaction existing, TransactionReport report, Instant now) {
        LinkTransaction progressed =
                existing.withProgress(report.confirmations(), report.requiredConfirmations(), existing.updatedAt());
        if (existing.status() != TransactionStatus.PENDING || progressed.equals(existing)) {
            return Mono.just(new Recorded(existing, link, false));
        }
        LinkTransaction stored = existing.withProgress(report.confirmations(), report.requiredConfirmations(), now);
        return transactions.update(stored).thenReturn(new Recorded(stored, link, false));
    }

    /**
     * Stores the transaction ({@code created}: a new record) and then the link's move with its events, which are
     * about this transaction.
     */
    private Mono<Recorded> save(
            Transition<PaymentLink> move, LinkTransaction transaction, boolean created, Instant now) {
        Mono<Void> stored = created ? transactions.insert(transaction) : transactions.update(transaction);
        return stored.then(changes.save(move, transaction.payment(), now))
                .map(link -> new Recorded(transaction, link, created));
    }

    /**
     * Whether a confirmed transaction completes a use: its amount together with the link's partial payments (earlier
     * confirmed underpayments no use has consumed) reaches the link amount. A customer who sent too little can
     * therefore top up with the remainder the checkout shows.
     */
    private Mono<Boolean> covers(PaymentLink link, LinkTransaction transaction) {
        return transactions
                .partialTotal(link.id(), transaction.id())
                .map(partial -> partial.add(transaction.cryptoAmount()).compareTo(link.amount()) >= 0);
    }

    /** When the transaction completed a use, the partial payments it topped up are consumed by that use too. */
    private Mono<Void> consumePartials(LinkTransaction transaction, Instant now) {
        return transaction.countedAsUse()
                ? transactions.consumePartials(transaction.paymentLinkId(), transaction.id(), now)
                : Mono.empty();
    }

    /** The late payment's step its transaction's status reports (only a confirmation is news: a deposit). */
    private static Transition<PaymentLink> latePayment(PaymentLink link, TransactionStatus status) {
        return switch (status) {
            case PENDING -> link.latePaymentPending();
            case CONFIRMED -> link.latePaymentConfirmed();
            default -> link.latePaymentFailed();
        };
    }

    /** Marks the transaction as having completed one use of the link when the move counted one. */
    private static LinkTransaction counted(
            LinkTransaction transaction, Transition<PaymentLink> move, PaymentLink before) {
        boolean counted = move.state().currentUses() > before.currentUses();
        return transaction.withStatus(
                transaction.status(), transaction.confirmations(), counted, transaction.updatedAt());
    }
}
