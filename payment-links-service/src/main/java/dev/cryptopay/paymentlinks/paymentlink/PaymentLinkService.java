package dev.cryptopay.paymentlinks.paymentlink;

import dev.cryptopay.auth.internal.MerchantIdentity;
import dev.cryptopay.paymentlinks.config.PaymentLinksProperties;
import dev.cryptopay.paymentlinks.currency.Currency;
import dev.cryptopay.paymentlinks.currency.CurrencyCatalog;
import dev.cryptopay.paymentlinks.idempotency.IdempotencyStore;
import dev.cryptopay.paymentlinks.idempotency.StoredResponse;
import dev.cryptopay.paymentlinks.transaction.TransactionRepository;
import dev.cryptopay.service.error.ApiException;
import dev.cryptopay.service.response.Envelope;
import dev.cryptopay.service.response.Pagination;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.stereotype.Service;
import org.springframework.transaction.reactive.TransactionalOperator;
import reactor.core.publisher.Mono;
import tools.jackson.databind.json.JsonMapper;

/** The merchant operations on payment links: validate → load → transition → save with its events, in one transaction. */
@Service
public class PaymentLinkService {

    private static final DateTimeFormatter DAY = DateTimeFormatter.BASIC_ISO_DATE;

    private final PaymentLinkRepository links;
    private final TransactionRepository transactions;
    private final CurrencyCatalog currencies;
    private final PaymentLinkRequestParser parser;
    private final PaymentLinkJson renderer;
    private final PaymentLinkEvents events;
    private final IdempotencyStore idempotency;
    private final TransactionalOperator tx;
    private final PaymentLinksProperties properties;
    private final JsonMapper json;
    private final Clock clock;
    private final SecureRandom random = new SecureRandom();

    public PaymentLinkService(
            PaymentLinkRepository links,
            TransactionRepository transactions,
            CurrencyCatalog currencies,
            PaymentLinkRequestParser parser,
            PaymentLinkJson renderer,
            PaymentLinkEvents events,
            IdempotencyStore idempotency,
            TransactionalOperator tx,
            PaymentLinksProperties properties,
            JsonMapper json,
            Clock clock) {
        this.links = links;
        this.transactions = transactions;
        this.currencies = currencies;
        this.parser = parser;
        this.renderer = renderer;
        this.events = events;
        this.idempotency = idempotency;
        this.tx = tx;
        this.properties = properties;
        this.json = json;
        this.clock = clock;
    }

    /** Creates a link and answers the response to send (201, or the stored response of an earlier identical try). */
    public Mono<StoredResponse> create(MerchantIdentity merchant, String body, String idempotencyKey) {
        Instant now = clock.instant();
        return currencies
                .all()
                .map(all -> parser.parse(body, all.stream().map(Currency::code).collect(Collectors.toSet()), now))
                .flatMap(request -> {
                    Mono<StoredResponse> create = insert(merchant, request, now);
                    if (idempotencyKey == null) {
                        return tx.transactional(create);
                    }
                    return tx.transactional(idempotency
                            .claim(merchant, idempotencyKey, body, now, properties.idempotencyRetention())
                            .flatMap(stored -> stored.isPresent()
                                    ? Mono.just(stored.get())
                                    : create.flatMap(response -> idempotency
                                            .complete(merchant, idempotencyKey, response)
                                            .thenReturn(response))));
                });
    }

    private Mono<StoredResponse> insert(MerchantIdentity merchant, NewPaymentLink request, Instant now) {
        return currencies
                .find(request.currency())
                .flatMap(currency -> {
                    PaymentLink draft = draft(merchant, request, currency.orElseThrow(), now);
                    Transition created = PaymentLink.create(draft);
                    return links.insert(created.link())
                            .then(events.append(created, null, now))
                            .then(Mono.fromSupplier(() -> new StoredResponse(
                                    201,
                                    json.writeValueAsString(Envelope.of(
                                            "Payment link created successfully",
                                            renderer.render(created.link(), now, null))))));
                })
                .onErrorMap(
                        DuplicateKeyException.class,
                        duplicate -> ApiException.conflict(
                                "duplicate_order_id", "A payment link with this order_id already exists"));
    }

    private PaymentLink draft(MerchantIdentity merchant, NewPaymentLink request, Currency currency, Instant now) {
        return new PaymentLink(
                UUID.randomUUID(),
                merchant.merchantId(),
                merchant.mode(),
                request.paymentName(),
                request.description(),
                request.amount(),
                request.currency(),
                currency.defaultNetwork(),
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
                now);
    }

    /** {@code PREFIX-yyyymmdd-<12 hex>}: 48 random bits keep generated order ids unique in practice. */
    private String generatedId(String prefix, Instant now) {
        byte[] bytes = new byte[6];
        random.nextBytes(bytes);
        return prefix + "-" + LocalDate.ofInstant(now, ZoneOffset.UTC).format(DAY) + "-"
                + HexFormat.of().formatHex(bytes);
    }

    public Mono<Map<String, Object>> get(MerchantIdentity merchant, UUID id) {
        Instant now = clock.instant();
        return links.find(merchant, id)
                .switchIfEmpty(Mono.error(() -> notFound()))
                .flatMap(link -> transactions
                        .summary(link.id())
                        .map(summary -> Envelope.of(
                                "Payment link retrieved successfully", renderer.render(link, now, summary))));
    }

    /** Soft delete; idempotent: deleting a cancelled link answers it unchanged. */
    public Mono<Map<String, Object>> cancel(MerchantIdentity merchant, UUID id) {
        Instant now = clock.instant();
        Mono<PaymentLink> cancel = links.lock(merchant, id)
                .switchIfEmpty(Mono.error(() -> notFound()))
                .flatMap(link -> {
                    Transition cancelled = link.cancel(now);
                    if (cancelled.link() == link) {
                        return Mono.just(link);
                    }
                    return links.updateState(cancelled.link())
                            .then(events.append(cancelled, null, now))
                            .thenReturn(cancelled.link());
                });
        return tx.transactional(cancel)
                .map(link -> Envelope.of("Payment link deleted successfully", renderer.render(link, now, null)));
    }

    public Mono<Map<String, Object>> list(MerchantIdentity merchant, PaymentLinkQuery query) {
        Instant now = clock.instant();
        PaymentLinkQuery.Sql where = query.where(merchant, now);
        return links.count(where)
                .zipWith(links.page(where, query.orderBy(), query.limit(), query.offset())
                        .map(link -> renderer.render(link, now, null))
                        .collectList())
                .map(result -> {
                    Map<String, Object> filters = new LinkedHashMap<>();
                    filters.put("sort_by", query.sortBy());
                    filters.put("sort_order", query.sortOrder());
                    Map<String, Object> data = new LinkedHashMap<>();
                    data.put("data", result.getT2());
                    data.put("pagination", Pagination.of(query.page(), query.limit(), result.getT1()));
                    data.put("filters", filters);
                    return Envelope.of("Payment links retrieved successfully", data);
                });
    }

    static ApiException notFound() {
        return ApiException.notFound("Payment link not found");
    }
}
