package dev.cryptopay.paymentlinks.paymentlink;

import dev.cryptopay.auth.internal.MerchantIdentity;
import dev.cryptopay.paymentlinks.config.PaymentLinksProperties;
import dev.cryptopay.paymentlinks.currency.Currency;
import dev.cryptopay.paymentlinks.currency.CurrencyCatalog;
import dev.cryptopay.paymentlinks.currency.PaymentNetwork;
import dev.cryptopay.paymentlinks.receiving.DepositAddress;
import dev.cryptopay.paymentlinks.receiving.ReceivingKeyService;
import dev.cryptopay.service.db.OneConnection;
import dev.cryptopay.service.error.ApiException;
import dev.cryptopay.service.events.Transition;
import dev.cryptopay.service.request.Violations;
import dev.cryptopay.service.request.Where;
import java.math.BigInteger;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.stereotype.Service;
import org.springframework.transaction.ReactiveTransactionManager;
import org.springframework.transaction.reactive.TransactionalOperator;
import reactor.core.publisher.Mono;

/**
 * The merchant operations on payment links: validate → load → transition → save with its events, in one transaction.
 * Answers domain results; the controller decides status codes and messages.
 */
@Service
public class PaymentLinkService {

    private static final DateTimeFormatter DAY = DateTimeFormatter.BASIC_ISO_DATE;
    /**
     * How many of a link's transactions (and of its refunds, and of its outgoing transfers) a single-link read lists;
     * {@code summary} counts them all.
     */
    static final int TRANSACTIONS_SHOWN = 100;

    private final PaymentLinkRepository links;
    private final RefundRepository refunds;
    private final CurrencyCatalog currencies;
    private final ReceivingKeyService receivingKeys;
    private final PaymentLinkChanges changes;
    private final TransactionalOperator tx;
    private final TransactionalOperator oneConnection;
    private final PaymentLinksProperties properties;
    private final Clock clock;
    private final SecureRandom random = new SecureRandom();

    public PaymentLinkService(
            PaymentLinkRepository links,
            RefundRepository refunds,
            CurrencyCatalog currencies,
            ReceivingKeyService receivingKeys,
            PaymentLinkChanges changes,
            TransactionalOperator tx,
            ReactiveTransactionManager transactions,
            PaymentLinksProperties properties,
            Clock clock) {
        this.links = links;
        this.refunds = refunds;
        this.currencies = currencies;
        this.receivingKeys = receivingKeys;
        this.changes = changes;
        this.tx = tx;
        this.oneConnection = OneConnection.operator(transactions);
        this.properties = properties;
        this.clock = clock;
    }

    /** The currency codes links may be created in, for {@link PaymentLinkRequestParser#parse}. */
    public Mono<Set<String>> currencyCodes() {
        return currencies.all().map(all -> all.stream().map(Currency::code).collect(Collectors.toSet()));
    }

    /**
     * Checks a parsed create request against where the merchant's mode pays its currency; a 400 when it cannot be
     * paid there. The amount must fit the token's decimals, so the link can be paid exactly.
     */
    public Mono<NewPaymentLink> validate(MerchantIdentity merchant, NewPaymentLink request) {
        return currencies.find(request.currency()).map(found -> {
            chainPayment(merchant, request, found.orElseThrow(), null);
            return request;
        });
    }

    /** Where and how much the link is paid; a 400 when the mode cannot pay the currency or the amount's precision. */
    private ChainPayment chainPayment(
            MerchantIdentity merchant, NewPaymentLink request, Currency currency, DepositAddress deposit) {
        Violations violations = new Violations();
        PaymentNetwork network = currencies
                .networkFor(merchant.mode(), currency)
                .filter(PaymentNetwork::payable)
                .orElse(null);
        if (network == null) {
            violations.reject(
                    "currency_not_payable",
                    "currency",
                    currency.code() + " cannot be paid in " + merchant.mode().wireName() + " mode on this service");
            violations.throwIfAny();
        }
        BigInteger baseUnits = network.baseUnits(request.amount()).orElse(null);
        if (baseUnits == null) {
            violations.reject(
                    "amount_too_precise",
                    "amount",
                    "amount has more decimal places than " + currency.code() + " has on " + network.name() + " ("
                            + network.decimals() + ")");
            violations.throwIfAny();
        }
        return new ChainPayment(network.chainId(), network.tokenContract(), network.decimals(), baseUnits, deposit);
    }

    /**
     * Creates a link with its payment.created event, paid to the next address of the merchant's receiving key (none
     * when no key is registered); a duplicate order_id is a 409.
     *
     * <p>Two statements on one connection, without a transaction of their own (inside an Idempotency-Key's they join
     * it): the address's index is taken, then the link and its event are inserted by one statement. A create that
     * fails after the first (a duplicate order_id) leaves that index unused, as a link never paid leaves its address:
     * no link points at it and nothing watches it.
     */
    public Mono<PaymentLinkView> create(MerchantIdentity merchant, NewPaymentLink request) {
        Instant now = clock.instant();
        Mono<PaymentLinkView> create = currencies.find(request.currency()).flatMap(found -> {
            Currency currency = found.orElseThrow();
            return receivingKeys
                    .allocate(merchant)
                    .map(Optional::of)
                    .defaultIfEmpty(Optional.empty())
                    .flatMap(deposit -> {
                        ChainPayment payment = chainPayment(merchant, request, currency, deposit.orElse(null));
                        Transition<PaymentLink> created =
                                PaymentLink.create(draft(merchant, request, currency, payment, now));
                        return changes.create(created, now).map(link -> new PaymentLinkView(link, now));
                    });
        });
        return oneConnection
                .transactional(create)
                .onErrorMap(
                        duplicate -> duplicate instanceof DuplicateKeyException
                                && String.valueOf(duplicate.getMessage()).contains("payment_link_order_id_unique"),
                        duplicate -> ApiException.conflict(
                                "duplicate_order_id", "A payment link with this order_id already exists"));
    }

    private PaymentLink draft(
            MerchantIdentity merchant, NewPaymentLink request, Currency currency, ChainPayment payment, Instant now) {
        return new PaymentLink(
                UUID.randomUUID(),
                merchant.merchantId(),
                merchant.mode(),
                request.paymentName(),
                request.description(),
                request.amount(),
                request.currency(),
                currencies.networkFor(merchant.mode(), currency).orElseThrow().name(),
                PaymentStatus.PENDING,
                request.expiresAt() != null ? request.expiresAt() : now.plus(properties.defaultExpiry()),
                request.maxUses() != null ? request.maxUses() : 1,
                0,
                true,
                request.customerId() != null ? request.customerId() : generatedId("CUST", now),
                request.customerName(),
                request.customerEmail(),
                request.productName(),
                request.productDescription(),
                request.cart(),
                request.orderId() != null ? request.orderId() : generatedId("ORD", now),
                request.autoFill() == null || request.autoFill(),
                request.successUrl(),
                request.cancelUrl(),
                request.webhookMetadata(),
                request.checkoutMode(),
                request.origin(),
                now,
                now,
                payment);
    }

    /** {@code PREFIX-yyyymmdd-<12 hex>}: 48 random bits keep generated order ids unique in practice. */
    private String generatedId(String prefix, Instant now) {
        byte[] bytes = new byte[6];
        random.nextBytes(bytes);
        return prefix + "-" + LocalDate.ofInstant(now, ZoneOffset.UTC).format(DAY) + "-"
                + HexFormat.of().formatHex(bytes);
    }

    /**
     * One link with its transaction summary and its {@value #TRANSACTIONS_SHOWN} most recent transactions (late ones
     * included, marked so), refunds and outgoing transfers.
     */
    public Mono<PaymentLinkView> get(MerchantIdentity merchant, UUID id) {
        Instant now = clock.instant();
        return links.find(merchant, id)
                .switchIfEmpty(Mono.error(() -> notFound()))
                // One query after the other: inside a caller's transaction they share one connection.
                .flatMap(link -> links.summary(link.id())
                        .flatMap(summary -> links.transactions(link.id(), TRANSACTIONS_SHOWN)
                                .collectList()
                                .flatMap(transactions -> refunds.ofLink(link.id(), TRANSACTIONS_SHOWN, 0)
                                        .collectList()
                                        .flatMap(linkRefunds -> links.outgoingTransfers(link.id(), TRANSACTIONS_SHOWN)
                                                .collectList()
                                                .map(outgoing -> new PaymentLinkView(
                                                        link, summary, transactions, linkRefunds, outgoing, now))))));
    }

    /** Soft delete; idempotent: deleting a cancelled link answers it unchanged. */
    public Mono<PaymentLinkView> cancel(MerchantIdentity merchant, UUID id) {
        Instant now = clock.instant();
        Mono<PaymentLink> cancel = links.lock(merchant, id)
                .switchIfEmpty(Mono.error(() -> notFound()))
                .flatMap(link -> changes.save(link.cancel(now), null, now));
        return tx.transactional(cancel).map(link -> new PaymentLinkView(link, now));
    }

    /** One page of the merchant's links and how many match in all. */
    public record Listed(List<PaymentLinkView> links, long total) {}

    public Mono<Listed> list(MerchantIdentity merchant, PaymentLinkQuery query) {
        Instant now = clock.instant();
        Where where = query.where(merchant, now);
        return links.count(where)
                .zipWith(links.page(
                                where,
                                query.orderBy(),
                                query.page().size(),
                                query.page().offset())
                        .map(link -> new PaymentLinkView(link, now))
                        .collectList())
                .map(result -> new Listed(result.getT2(), result.getT1()));
    }

    static ApiException notFound() {
        return ApiException.notFound("Payment link not found");
    }
}
