package dev.cryptopay.paymentlinks.transaction;

import dev.cryptopay.auth.internal.MerchantIdentity;
import dev.cryptopay.paymentlinks.paymentlink.PaymentLink;
import dev.cryptopay.paymentlinks.paymentlink.PaymentLinkChanges;
import dev.cryptopay.paymentlinks.paymentlink.PaymentLinkRepository;
import dev.cryptopay.paymentlinks.paymentlink.PaymentLinkService;
import dev.cryptopay.paymentlinks.paymentlink.PaymentLinkView;
import dev.cryptopay.paymentlinks.paymentlink.RefundRepository;
import dev.cryptopay.service.error.ApiException;
import dev.cryptopay.service.money.Amounts;
import java.time.Clock;
import java.time.Instant;
import java.util.UUID;
import org.springframework.stereotype.Service;
import org.springframework.transaction.reactive.TransactionalOperator;
import reactor.core.publisher.Mono;

/**
 * The merchant's answer to a late payment: accepting it as a use of its link ({@code POST /payment_links/{id}/resolve}).
 */
@Service
public class LatePaymentService {

    private final PaymentLinkRepository links;
    private final TransactionRepository transactions;
    private final RefundRepository refunds;
    private final PaymentLinkChanges changes;
    private final PaymentLinkService paymentLinks;
    private final TransactionalOperator tx;
    private final Clock clock;

    public LatePaymentService(
            PaymentLinkRepository links,
            TransactionRepository transactions,
            RefundRepository refunds,
            PaymentLinkChanges changes,
            PaymentLinkService paymentLinks,
            TransactionalOperator tx,
            Clock clock) {
        this.links = links;
        this.transactions = transactions;
        this.refunds = refunds;
        this.changes = changes;
        this.paymentLinks = paymentLinks;
        this.tx = tx;
        this.clock = clock;
    }

    /**
     * The merchant accepts a late payment as one use of its link: the transfer ({@code tx_hash}, and
     * {@code log_index} when the transaction holds several transfers to the link) must be the link's asset, late,
     * confirmed and cover the link amount on its own (late partial payments are not added up), less what completed
     * refunds returned of it, and no refund of the link may be open. It is marked as
     * counted, the link counts the use ({@link PaymentLink#latePaymentResolved}) and {@code payment.completed} is
     * written, in one transaction. Resolving it again answers the link without a change or an event. 404 when the link
     * is not the merchant's or the transfer not the link's; 409 {@code log_index_required}, {@code unexpected_asset},
     * {@code not_late}, {@code not_confirmed}, {@code refund_open} or {@code insufficient_amount}.
     */
    public Mono<PaymentLinkView> resolve(MerchantIdentity merchant, UUID linkId, ResolveRequest request) {
        Instant now = clock.instant();
        Mono<PaymentLinkView> work = links.lock(merchant, linkId)
                .switchIfEmpty(Mono.error(() -> ApiException.notFound("Payment link not found")))
                .flatMap(link -> transactions
                        .lockOfLink(link.id(), request.txHash())
                        .collectList()
                        .map(ofHash -> Transfers.choose(ofHash, request.logIndex()))
                        .flatMap(found -> resolve(link, found, now)))
                .then(Mono.defer(() -> paymentLinks.get(merchant, linkId)));
        return tx.transactional(work);
    }

    private Mono<PaymentLink> resolve(PaymentLink link, LinkTransaction found, Instant now) {
        if (found.unexpectedAsset()) {
            throw ApiException.conflict(
                    "unexpected_asset",
                    "This transfer is " + found.asset() + ", not the link's " + link.currency()
                            + ": it cannot pay the link; return it to the sender instead");
        }
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
        return refunds.countOpenOfLink(link.id()).flatMap(open -> {
            // A refund being paid may return this very money: accepting it now could count money that leaves.
            if (open > 0) {
                throw ApiException.conflict(
                        "refund_open",
                        "A refund of this link is open: resolve the late payment once it has completed or failed");
            }
            // What completed refunds returned of the transfer no longer pays anything.
            if (found.unrefunded().compareTo(link.amount()) < 0) {
                String what = found.unrefunded().compareTo(found.cryptoAmount()) < 0
                        ? "The transaction's amount less what refunds returned of it"
                        : "The transaction's amount";
                throw ApiException.conflict(
                        "insufficient_amount",
                        what + " (" + Amounts.plainString(found.unrefunded()) + ") does not cover the link amount ("
                                + Amounts.plainString(link.amount()) + ")");
            }
            LinkTransaction resolved = found.withStatus(found.status(), found.confirmations(), true, now);
            return transactions
                    .update(resolved)
                    .then(changes.save(link.latePaymentResolved(now), resolved.payment(), now));
        });
    }
}
