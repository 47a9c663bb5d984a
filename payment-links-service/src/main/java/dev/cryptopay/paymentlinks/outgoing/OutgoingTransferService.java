package dev.cryptopay.paymentlinks.outgoing;

import dev.cryptopay.paymentlinks.currency.CurrencyCatalog;
import dev.cryptopay.paymentlinks.paymentlink.LinkRefund;
import dev.cryptopay.paymentlinks.paymentlink.PaymentLink;
import dev.cryptopay.paymentlinks.paymentlink.PaymentLinkRepository;
import dev.cryptopay.paymentlinks.paymentlink.RefundFailure;
import dev.cryptopay.paymentlinks.paymentlink.RefundRepository;
import dev.cryptopay.paymentlinks.paymentlink.RefundStatus;
import dev.cryptopay.paymentlinks.refund.RefundSettlement;
import dev.cryptopay.paymentlinks.transaction.TransactionStatus;
import dev.cryptopay.service.error.ApiException;
import java.time.Clock;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.stereotype.Service;
import org.springframework.transaction.reactive.TransactionalOperator;
import reactor.core.publisher.Mono;

/**
 * Records what a chain watcher saw leave a link's deposit address, with the link's row locked, and decides what it
 * was. A transfer is identified by (network, tx_hash, log_index); reports are idempotent and follow the transaction
 * report's rules: the same status again changes nothing (a pending one takes new counts), pending may become
 * confirmed or failed, a failed one seen on chain again is decided anew, a pending report after the confirmation
 * changes nothing. Refused (409), since no ordinary sequence of reports sends them: a transfer recorded for another
 * link or with other money ({@code transaction_conflict}), a confirmed transfer reported failed
 * ({@code illegal_transition}), a transfer not from the link's deposit address ({@code not_from_deposit_address}) or
 * a link without one ({@code no_deposit_address}).
 *
 * <p>A transfer of the token, recipient and exact amount of an open refund of the link pays the oldest such refund
 * ({@link RefundSettlement}), or else of an abandoned one (paid after its deadline) the latest such refund; any other
 * is a withdrawal, announced as {@code wallet.withdrawal} once confirmed.
 */
@Service
class OutgoingTransferService {

    private final PaymentLinkRepository links;
    private final OutgoingTransferRepository transfers;
    private final RefundRepository refunds;
    private final RefundSettlement settlement;
    private final WithdrawalEvents withdrawals;
    private final CurrencyCatalog currencies;
    private final TransactionalOperator tx;
    private final Clock clock;

    OutgoingTransferService(
            PaymentLinkRepository links,
            OutgoingTransferRepository transfers,
            RefundRepository refunds,
            RefundSettlement settlement,
            WithdrawalEvents withdrawals,
            CurrencyCatalog currencies,
            TransactionalOperator tx,
            Clock clock) {
        this.links = links;
        this.transfers = transfers;
        this.refunds = refunds;
        this.settlement = settlement;
        this.withdrawals = withdrawals;
        this.currencies = currencies;
        this.tx = tx;
        this.clock = clock;
    }

    /**
     * The transfer as stored, the refund it pays (null for a withdrawal) and whether the report made a new record.
     */
    record Recorded(OutgoingTransfer transfer, LinkRefund refund, boolean created) {}

    Mono<Recorded> record(UUID linkId, OutgoingTransferReport report) {
        Instant now = clock.instant();
        Mono<Recorded> work = links.lockAnyMerchant(linkId)
                .switchIfEmpty(Mono.error(() -> ApiException.notFound("Payment link not found")))
                .flatMap(link -> {
                    String deposit =
                            link.payment() == null ? null : link.payment().depositAddress();
                    if (deposit == null) {
                        throw ApiException.conflict(
                                "no_deposit_address", "This payment link has no deposit address: nothing can leave it");
                    }
                    if (!deposit.equalsIgnoreCase(report.fromAddress())) {
                        throw ApiException.conflict(
                                "not_from_deposit_address",
                                "from_address is not this payment link's deposit address (" + deposit + ")");
                    }
                    return transfers
                            .lock(report.network(), report.txHash(), report.logIndex())
                            .map(Optional::of)
                            .defaultIfEmpty(Optional.empty())
                            .flatMap(existing -> existing.isPresent()
                                    ? update(link, existing.get(), report, now)
                                    : create(link, deposit, report, now));
                });
        // Two links reporting one new transfer at the same moment: the second insert meets the first one's row.
        return tx.transactional(work)
                .onErrorMap(
                        duplicate -> duplicate instanceof DuplicateKeyException
                                && String.valueOf(duplicate.getMessage()).contains("link_outgoing_transfer_unique"),
                        duplicate -> conflict("This transfer is already recorded for another payment link"));
    }

    private Mono<Recorded> create(PaymentLink link, String deposit, OutgoingTransferReport report, Instant now) {
        return currencies
                .assetName(report.network(), report.tokenContract())
                .flatMap(asset -> decide(
                        link,
                        new OutgoingTransfer(
                                UUID.randomUUID(),
                                link.id(),
                                report.network(),
                                report.txHash(),
                                report.logIndex(),
                                report.tokenContract(),
                                asset,
                                deposit,
                                report.toAddress(),
                                report.cryptoAmount(),
                                report.status(),
                                report.confirmations(),
                                report.requiredConfirmations(),
                                null,
                                now,
                                now),
                        true,
                        now));
    }

    private Mono<Recorded> update(
            PaymentLink link, OutgoingTransfer existing, OutgoingTransferReport report, Instant now) {
        if (!existing.paymentLinkId().equals(link.id())) {
            throw conflict("This transfer is already recorded for another payment link");
        }
        if (!existing.sameMoney(report)) {
            throw conflict("This transfer is already recorded with another token, recipient or amount");
        }
        if (existing.status() == report.status()) {
            return progressed(existing, report, now);
        }
        switch (existing.status()) {
            case PENDING:
                return settled(link, existing.reported(report, now), now);
            case FAILED:
                // Taken away by a reorganisation, now in a block again: decided as if first seen now.
                return decide(link, existing.reported(report, now), false, now);
            default:
                if (report.status() == TransactionStatus.FAILED) {
                    throw ApiException.conflict(
                            "illegal_transition",
                            "Transfer is already " + existing.status().wireName() + " and cannot become failed");
                }
                // A pending report older than the recorded confirmation: nothing new.
                return refundOf(existing).map(refund -> new Recorded(existing, refund.orElse(null), false));
        }
    }

    /**
     * What a transfer seen now (new, or failed and seen again) does: a failed one nothing; otherwise it pays the
     * refund a reorganisation had failed it for, else the oldest open refund it matches, else the latest abandoned
     * refund it matches (paid after its deadline), else it is a withdrawal.
     */
    private Mono<Recorded> decide(PaymentLink link, OutgoingTransfer seen, boolean created, Instant now) {
        if (seen.status() == TransactionStatus.FAILED) {
            return store(seen, created).thenReturn(new Recorded(seen, null, created));
        }
        Mono<LinkRefund> lost = seen.refundId() == null
                ? Mono.empty()
                : refunds.lock(seen.refundId())
                        .filter(refund -> refund.status() == RefundStatus.FAILED
                                && refund.failure() == RefundFailure.REORGANISED);
        boolean confirmed = seen.status() == TransactionStatus.CONFIRMED;
        return lost.switchIfEmpty(Mono.defer(() ->
                        refunds.lockOpenPaidBy(link.id(), seen.tokenContract(), seen.toAddress(), seen.cryptoAmount())))
                // Paid after its deadline: still that refund, not a withdrawal that would leave the amount refundable
                // (and the merchant paying it twice).
                .switchIfEmpty(Mono.defer(() -> refunds.lockAbandonedPaidBy(
                        link.id(), seen.tokenContract(), seen.toAddress(), seen.cryptoAmount())))
                .map(Optional::of)
                .defaultIfEmpty(Optional.empty())
                .flatMap(refund -> {
                    if (refund.isEmpty()) {
                        OutgoingTransfer withdrawal = seen.paying(null);
                        return store(withdrawal, created)
                                .then(confirmed ? withdrawals.append(link, withdrawal, now) : Mono.empty())
                                .thenReturn(new Recorded(withdrawal, null, created));
                    }
                    OutgoingTransfer paying = seen.paying(refund.get().id());
                    return store(paying, created)
                            .then(settlement.paid(
                                    link,
                                    refund.get(),
                                    paying.txHash(),
                                    paying.logIndex(),
                                    paying.confirmations(),
                                    confirmed,
                                    now))
                            .map(paid -> new Recorded(paying, paid, created));
                });
    }

    /** A pending transfer reported confirmed or failed: its refund completes or fails; a withdrawal is announced. */
    private Mono<Recorded> settled(PaymentLink link, OutgoingTransfer changed, Instant now) {
        boolean confirmed = changed.status() == TransactionStatus.CONFIRMED;
        return transfers.update(changed).then(refundOf(changed)).flatMap(refund -> {
            if (refund.isEmpty()) {
                Mono<Void> announce = confirmed ? withdrawals.append(link, changed, now) : Mono.empty();
                return announce.thenReturn(new Recorded(changed, null, false));
            }
            Mono<LinkRefund> moved = confirmed
                    ? settlement.paid(
                            link,
                            refund.get(),
                            changed.txHash(),
                            changed.logIndex(),
                            changed.confirmations(),
                            true,
                            now)
                    : settlement.reorganised(link, refund.get(), changed.confirmations(), now);
            return moved.map(after -> new Recorded(changed, after, false));
        });
    }

    /** The same status again: nothing changes, except that a pending transfer takes the newer counts. */
    private Mono<Recorded> progressed(OutgoingTransfer existing, OutgoingTransferReport report, Instant now) {
        OutgoingTransfer progressed = existing.reported(report, existing.updatedAt());
        Mono<OutgoingTransfer> stored = existing.status() != TransactionStatus.PENDING || progressed.equals(existing)
                ? Mono.just(existing)
                : Mono.just(existing.reported(report, now))
                        .flatMap(newer -> transfers.update(newer).thenReturn(newer));
        return stored.flatMap(
                transfer -> refundOf(transfer).map(refund -> new Recorded(transfer, refund.orElse(null), false)));
    }

    private Mono<Optional<LinkRefund>> refundOf(OutgoingTransfer transfer) {
        return transfer.refundId() == null
                ? Mono.just(Optional.empty())
                : refunds.lock(transfer.refundId()).map(Optional::of).defaultIfEmpty(Optional.empty());
    }

    private Mono<Void> store(OutgoingTransfer transfer, boolean created) {
        return created ? transfers.insert(transfer) : transfers.update(transfer);
    }

    private static ApiException conflict(String message) {
        return ApiException.conflict("transaction_conflict", message);
    }
}
