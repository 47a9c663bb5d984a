package dev.cryptopay.paymentlinks.transaction;

import dev.cryptopay.paymentlinks.currency.CurrencyCatalog;
import dev.cryptopay.paymentlinks.paymentlink.PaymentLink;
import dev.cryptopay.paymentlinks.paymentlink.PaymentLinkChanges;
import dev.cryptopay.paymentlinks.paymentlink.PaymentLinkRepository;
import dev.cryptopay.service.error.ApiException;
import dev.cryptopay.service.events.Transition;
import java.math.BigDecimal;
import java.time.Clock;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.stereotype.Service;
import org.springframework.transaction.reactive.TransactionalOperator;
import reactor.core.publisher.Mono;

/**
 * Records what a chain watcher saw on chain and drives the link through its aggregate. A report is about one transfer,
 * identified by (network, tx_hash, log_index): one transaction may hold several, to several links or to one, and each
 * is recorded on its own. Reports are idempotent: the same report again changes nothing. A pending transfer may later
 * be reported confirmed or failed; a failed one seen on chain again is decided anew; a pending report older than the
 * transfer's confirmation or refund changes nothing. Only a transfer recorded for another link (409
 * {@code transaction_conflict}) and a confirmed or refunded transfer reported failed (409 {@code illegal_transition}:
 * a reorganisation deeper than the confirmations) are refused, so no ordinary sequence of reports is.
 *
 * <p>A transfer the link can no longer count is <em>late</em>: first seen when the link no longer took payments, or
 * confirmed after its uses were taken or it was cancelled. It is recorded and completes nothing; once confirmed it is
 * a {@code wallet.deposit}, until the merchant {@linkplain LatePaymentService#resolve resolves} it into a use.
 *
 * <p>A transfer of another asset than the link's (another token, the native coin for a token link, or the reverse) is
 * an <em>unexpected asset</em>: recorded, named by the currency catalogue, never counted, never moving the link nor
 * sending {@code payment.*}; once confirmed it is a {@code wallet.deposit} with reason {@code unexpected_asset}.
 */
@Service
public class TransactionService {

    private final PaymentLinkRepository links;
    private final TransactionRepository transactions;
    private final PaymentLinkChanges changes;
    private final CurrencyCatalog currencies;
    private final TransactionalOperator tx;
    private final Clock clock;

    public TransactionService(
            PaymentLinkRepository links,
            TransactionRepository transactions,
            PaymentLinkChanges changes,
            CurrencyCatalog currencies,
            TransactionalOperator tx,
            Clock clock) {
        this.links = links;
        this.transactions = transactions;
        this.changes = changes;
        this.currencies = currencies;
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
                        .lock(report.network(), report.txHash(), report.logIndex())
                        .switchIfEmpty(Mono.defer(() -> transactions.adoptLegacy(link.id(), report)))
                        .map(Optional::of)
                        .defaultIfEmpty(Optional.empty())
                        .flatMap(existing -> existing.isPresent()
                                ? update(link, existing.get(), report, now)
                                : create(link, report, now)));
        // Two links reporting one new transfer at the same moment: the second insert meets the first one's row.
        return tx.transactional(work)
                .onErrorMap(
                        duplicate -> duplicate instanceof DuplicateKeyException
                                && String.valueOf(duplicate.getMessage()).contains("link_transaction_transfer_unique"),
                        duplicate -> conflict());
    }

    /** A transfer seen for the first time: named, marked late or unexpected as it is now, then decided. */
    private Mono<Recorded> create(PaymentLink link, TransactionReport report, Instant now) {
        boolean unexpected = !link.takesAsset(report.tokenContract());
        Mono<String> asset = unexpected
                ? currencies.assetName(report.network(), report.tokenContract())
                : Mono.just(link.currency());
        return asset.flatMap(name -> decide(
                link,
                new LinkTransaction(
                        UUID.randomUUID(),
                        link.id(),
                        report.network(),
                        report.txHash(),
                        report.logIndex(),
                        report.tokenContract(),
                        name,
                        report.payerAddress(),
                        report.cryptoAmount(),
                        report.fiatAmount(),
                        BigDecimal.ZERO,
                        report.status(),
                        report.confirmations(),
                        report.requiredConfirmations(),
                        false,
                        !link.acceptsPayments(now),
                        unexpected,
                        now,
                        now),
                true,
                now));
    }

    private Mono<Recorded> update(PaymentLink link, LinkTransaction existing, TransactionReport report, Instant now) {
        if (!existing.paymentLinkId().equals(link.id())) {
            throw conflict();
        }
        if (existing.status() == report.status()) {
            return progressed(link, existing, report, now);
        }
        switch (existing.status()) {
            case PENDING:
                return settled(link, existing, report, now);
            case FAILED:
                // Taken away by a reorganisation, now in a block again: decided as if first seen now.
                return decide(link, existing.seenAgain(report, !link.acceptsPayments(now), now), false, now);
            default:
                if (report.status() == TransactionStatus.FAILED) {
                    throw ApiException.conflict(
                            "illegal_transition",
                            "Transaction is already " + existing.status().wireName() + " and cannot become failed");
                }
                // A pending (or confirmed) report older than what is recorded: nothing new.
                return Mono.just(new Recorded(existing, link, false));
        }
    }

    /**
     * What a transfer seen now (new, or failed and seen again) does: an unexpected asset or a late payment moves
     * nothing; otherwise the link sees it pending, confirmed (a use when it covers the amount with the partial
     * payments) or failed.
     */
    private Mono<Recorded> decide(PaymentLink link, LinkTransaction seen, boolean created, Instant now) {
        if (seen.unexpectedAsset()) {
            return save(unexpectedAsset(link, seen.status()), seen, created, now);
        }
        if (seen.late()) {
            return save(latePayment(link, seen.status()), seen, created, now);
        }
        Mono<Boolean> covers =
                seen.status() == TransactionStatus.CONFIRMED ? covers(link, seen) : Mono.just(Boolean.FALSE);
        return Mono.zip(transactions.othersPending(link.id(), seen.id()), covers)
                .flatMap(found -> {
                    boolean othersPending = found.getT1();
                    Transition<PaymentLink> move = switch (seen.status()) {
                        case PENDING -> link.transactionPending(now);
                        case CONFIRMED -> link.transactionConfirmed(false, found.getT2(), othersPending, now);
                        default -> link.transactionFailed(othersPending, now);
                    };
                    LinkTransaction stored = counted(seen, move, link);
                    return consumePartials(stored, now).then(save(move, stored, created, now));
                });
    }

    /** A pending transfer reported confirmed or failed. */
    private Mono<Recorded> settled(PaymentLink link, LinkTransaction pending, TransactionReport report, Instant now) {
        LinkTransaction changed = pending.valuedAt(report.fiatAmount())
                .withStatus(report.status(), report.confirmations(), false, now)
                .withProgress(report.confirmations(), report.requiredConfirmations(), now);
        if (pending.unexpectedAsset()) {
            return save(unexpectedAsset(link, report.status()), changed, false, now);
        }
        if (pending.late()) {
            return save(latePayment(link, report.status()), changed, false, now);
        }
        if (report.status() == TransactionStatus.CONFIRMED && !link.countsConfirmation(true, now)) {
            // Seen in time, but another payment took the last use (or the merchant cancelled) before it confirmed.
            return save(link.latePaymentConfirmed(), changed.asLate(now), false, now);
        }
        Mono<Boolean> covers =
                report.status() == TransactionStatus.CONFIRMED ? covers(link, changed) : Mono.just(Boolean.FALSE);
        return Mono.zip(transactions.othersPending(link.id(), pending.id()), covers)
                .flatMap(found -> {
                    Transition<PaymentLink> move = report.status() == TransactionStatus.CONFIRMED
                            ? link.transactionConfirmed(true, found.getT2(), found.getT1(), now)
                            : link.transactionFailed(found.getT1(), now);
                    LinkTransaction stored = counted(changed, move, link);
                    return consumePartials(stored, now).then(save(move, stored, false, now));
                });
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

    /** The link's move for a step of a late payment: only its confirmation is news ({@code wallet.deposit}). */
    private static Transition<PaymentLink> latePayment(PaymentLink link, TransactionStatus status) {
        return switch (status) {
            case PENDING -> link.latePaymentPending();
            case CONFIRMED -> link.latePaymentConfirmed();
            default -> link.latePaymentFailed();
        };
    }

    /** The link's move for a step of an unexpected asset: only its confirmation is news ({@code wallet.deposit}). */
    private static Transition<PaymentLink> unexpectedAsset(PaymentLink link, TransactionStatus status) {
        return status == TransactionStatus.CONFIRMED ? link.unexpectedAssetConfirmed() : Transition.unchanged(link);
    }

    /** Marks the transaction as having completed one use of the link when the move counted one. */
    private static LinkTransaction counted(
            LinkTransaction transaction, Transition<PaymentLink> move, PaymentLink before) {
        boolean counted = move.state().currentUses() > before.currentUses();
        return transaction.withStatus(
                transaction.status(), transaction.confirmations(), counted, transaction.updatedAt());
    }

    private static ApiException conflict() {
        return ApiException.conflict(
                "transaction_conflict", "This transfer is already recorded against another payment link");
    }
}
