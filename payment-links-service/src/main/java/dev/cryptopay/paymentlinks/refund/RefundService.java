package dev.cryptopay.paymentlinks.refund;

import dev.cryptopay.auth.internal.MerchantIdentity;
import dev.cryptopay.paymentlinks.config.PaymentLinksProperties;
import dev.cryptopay.paymentlinks.currency.CurrencyCatalog;
import dev.cryptopay.paymentlinks.paymentlink.ChainPayment;
import dev.cryptopay.paymentlinks.paymentlink.LinkRefund;
import dev.cryptopay.paymentlinks.paymentlink.PaymentLink;
import dev.cryptopay.paymentlinks.paymentlink.PaymentLinkRepository;
import dev.cryptopay.paymentlinks.paymentlink.RefundRepository;
import dev.cryptopay.paymentlinks.paymentlink.RefundStatus;
import dev.cryptopay.paymentlinks.receiving.EthereumAddress;
import dev.cryptopay.paymentlinks.transaction.LinkTransaction;
import dev.cryptopay.paymentlinks.transaction.TransactionRepository;
import dev.cryptopay.paymentlinks.transaction.TransactionStatus;
import dev.cryptopay.service.error.ApiException;
import dev.cryptopay.service.events.EventType;
import dev.cryptopay.service.money.Amounts;
import dev.cryptopay.service.request.PageRequest;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import org.springframework.stereotype.Service;
import org.springframework.transaction.reactive.TransactionalOperator;
import reactor.core.publisher.Mono;

/**
 * The merchant's refunds: asking for one and reading them. A refund is a request the merchant's own wallet pays from
 * the link's deposit address; {@link RefundSettlement} follows it on chain.
 */
@Service
public class RefundService {

    private final PaymentLinkRepository links;
    private final RefundRepository refunds;
    private final TransactionRepository transactions;
    private final CurrencyCatalog currencies;
    private final TransferEvents events;
    private final TransactionalOperator tx;
    private final Duration abandonAfter;
    private final Clock clock;

    RefundService(
            PaymentLinkRepository links,
            RefundRepository refunds,
            TransactionRepository transactions,
            CurrencyCatalog currencies,
            TransferEvents events,
            TransactionalOperator tx,
            PaymentLinksProperties properties,
            Clock clock) {
        this.links = links;
        this.refunds = refunds;
        this.transactions = transactions;
        this.currencies = currencies;
        this.events = events;
        this.tx = tx;
        this.abandonAfter = properties.refunds().abandonAfter();
        this.clock = clock;
    }

    /**
     * What one refund may return, before the request's own amount and address are judged.
     *
     * @param tokenContract  lower case; null for the native coin
     * @param refundable     the most it may return now
     * @param payer          where it goes when the request names no address; null when that is not one address
     */
    private record Refundable(
            UUID transactionId,
            String tokenContract,
            String asset,
            int decimals,
            BigDecimal refundable,
            String payer) {}

    /**
     * Asks for a refund and announces it ({@code transfer.initiated}), with the link's row locked so every refund of
     * the link is judged together. With {@code transaction_id} it returns that transfer (any asset, late or not):
     * by default what refunds of it do not claim yet, to its payer. Without, it returns the link's money in its asset:
     * by default its confirmed transfers of that asset (late ones too) less what refunds claim, to their payer when
     * they all came from one address (else 400 {@code address_required}). 404 for a link that is not the merchant's
     * or a transfer that is not the link's; 409 {@code no_deposit_address}, {@code not_confirmed},
     * {@code nothing_to_refund}, {@code exceeds_refundable}, {@code unknown_token}; 400 {@code amount_too_precise}.
     */
    public Mono<LinkRefund> create(MerchantIdentity merchant, UUID linkId, RefundRequest request) {
        Instant now = clock.instant();
        Mono<LinkRefund> work = links.lock(merchant, linkId)
                .switchIfEmpty(Mono.error(() -> ApiException.notFound("Payment link not found")))
                .flatMap(link -> {
                    ChainPayment payment = link.payment();
                    if (payment == null || payment.deposit() == null) {
                        throw ApiException.conflict(
                                "no_deposit_address",
                                "This payment link has no deposit address, so nothing was paid to it that could be "
                                        + "refunded");
                    }
                    Mono<Refundable> refundable = request.transactionId() == null
                            ? ofLink(link, payment)
                            : ofTransfer(link, payment, request.transactionId());
                    return refundable.flatMap(found -> create(link, payment, found, request, now));
                });
        return tx.transactional(work);
    }

    private Mono<Refundable> ofLink(PaymentLink link, ChainPayment payment) {
        return refunds.refundableOfLink(link.id())
                .flatMap(refundable -> transactions
                        .payers(link.id(), 2)
                        .collectList()
                        .map(payers -> new Refundable(
                                null,
                                lower(payment.tokenContract()),
                                link.currency(),
                                payment.decimals(),
                                refundable,
                                payers.size() == 1 ? payers.get(0) : null)));
    }

    private Mono<Refundable> ofTransfer(PaymentLink link, ChainPayment payment, UUID transactionId) {
        return transactions
                .lockOfLink(link.id(), transactionId)
                .switchIfEmpty(Mono.error(() -> ApiException.notFound("Transaction not found for this link")))
                .flatMap(transfer -> {
                    if (transfer.status() == TransactionStatus.PENDING
                            || transfer.status() == TransactionStatus.FAILED) {
                        throw ApiException.conflict(
                                "not_confirmed",
                                "Only a confirmed transaction can be refunded; this one is "
                                        + transfer.status().wireName());
                    }
                    Mono<BigDecimal> ofLink = transfer.unexpectedAsset()
                            ? Mono.just(transfer.cryptoAmount())
                            : refunds.refundableOfLink(link.id());
                    Mono<Integer> decimals = transfer.unexpectedAsset()
                            ? currencies
                                    .decimals(transfer.network(), transfer.tokenContract())
                                    .map(found -> found.orElseThrow(() -> unknownToken(transfer)))
                            : Mono.just(payment.decimals());
                    return refunds.claimedOf(transfer.id())
                            .flatMap(claimed -> ofLink.flatMap(linkLeft -> decimals.map(places -> new Refundable(
                                    transfer.id(),
                                    transfer.tokenContract(),
                                    transfer.asset(),
                                    places,
                                    left(transfer, claimed).min(linkLeft),
                                    transfer.payerAddress()))));
                });
    }

    /** What refunds of the transfer leave: nothing once it reads refunded, else its amount less every claim. */
    private static BigDecimal left(LinkTransaction transfer, BigDecimal claimed) {
        return transfer.status() == TransactionStatus.REFUNDED
                ? BigDecimal.ZERO
                : transfer.unrefunded().subtract(claimed);
    }

    private Mono<LinkRefund> create(
            PaymentLink link, ChainPayment payment, Refundable found, RefundRequest request, Instant now) {
        // What can be refunded, in units the token can carry (a watcher's amount never has more decimals).
        BigDecimal most = found.refundable().max(BigDecimal.ZERO).setScale(found.decimals(), RoundingMode.FLOOR);
        if (most.signum() <= 0) {
            throw ApiException.conflict(
                    "nothing_to_refund",
                    found.transactionId() == null
                            ? "Nothing of this link's " + found.asset() + " is left to refund: nothing confirmed "
                                    + "arrived, or refunds already claim all of it"
                            : "Nothing of this transaction is left to refund: refunds already claim all of it");
        }
        BigDecimal amount = request.amount() == null ? Amounts.normalize(most) : request.amount();
        BigInteger baseUnits = baseUnits(amount, found.decimals());
        if (baseUnits == null) {
            throw ApiException.invalidField(
                    "amount_too_precise",
                    "amount",
                    "amount has more decimal places than " + found.asset() + " has (" + found.decimals() + ")");
        }
        if (amount.compareTo(most) > 0) {
            throw ApiException.conflict(
                    "exceeds_refundable",
                    "amount (" + Amounts.plainString(amount) + ") exceeds what can be refunded ("
                            + Amounts.plainString(most) + " " + found.asset() + ")");
        }
        String to = destination(request, found, payment);
        LinkRefund refund = new LinkRefund(
                UUID.randomUUID(),
                link.id(),
                found.transactionId(),
                RefundStatus.INITIATED,
                null,
                link.network(),
                payment.chainId(),
                found.tokenContract(),
                found.asset(),
                found.decimals(),
                amount,
                baseUnits,
                payment.depositAddress(),
                to,
                now.plus(abandonAfter),
                null,
                null,
                now,
                now);
        return refunds.insert(refund)
                .then(events.append(EventType.TRANSFER_INITIATED, link, refund, null, now))
                .thenReturn(refund);
    }

    /** The request's address, else the payer's; in EIP-55 form, never the deposit address itself. */
    private static String destination(RefundRequest request, Refundable found, ChainPayment payment) {
        String to = request.address();
        if (to == null) {
            if (found.payer() == null || !EthereumAddress.isValid(found.payer())) {
                throw ApiException.invalidField(
                        "address_required",
                        "address",
                        found.payer() == null
                                ? "address is required: this link's payments came from more than one address"
                                : "address is required: the payer's address (" + found.payer()
                                        + ") is not an address a refund can be sent to");
            }
            to = found.payer();
        }
        if (to.equalsIgnoreCase(payment.depositAddress())) {
            throw ApiException.invalidField(
                    "invalid_address", "address", "address must not be the link's own deposit address");
        }
        return EthereumAddress.checksummed(to);
    }

    /** One page of the link's refunds, newest first; 404 when the link is not the merchant's. */
    public Mono<Listed> list(MerchantIdentity merchant, UUID linkId, PageRequest page) {
        return links.find(merchant, linkId)
                .switchIfEmpty(Mono.error(() -> ApiException.notFound("Payment link not found")))
                .flatMap(link -> refunds.countOfLink(link.id())
                        .flatMap(total -> refunds.ofLink(link.id(), page.size(), page.offset())
                                .collectList()
                                .map(found -> new Listed(found, total))));
    }

    /** One page of refunds and how many the link has in all. */
    public record Listed(List<LinkRefund> refunds, long total) {}

    private static BigInteger baseUnits(BigDecimal amount, int decimals) {
        try {
            return amount.movePointRight(decimals).toBigIntegerExact();
        } catch (ArithmeticException fractional) {
            return null;
        }
    }

    private static ApiException unknownToken(LinkTransaction transfer) {
        return ApiException.conflict(
                "unknown_token",
                "This transfer's token (" + transfer.asset() + ") is not one this service knows the decimals of, so "
                        + "it cannot ask for its refund: send it back from your wallet");
    }

    private static String lower(String contract) {
        return contract == null ? null : contract.toLowerCase(Locale.ROOT);
    }
}
