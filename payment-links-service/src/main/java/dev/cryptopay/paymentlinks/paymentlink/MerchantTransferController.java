package dev.cryptopay.paymentlinks.paymentlink;

import dev.cryptopay.auth.internal.MerchantIdentity;
import dev.cryptopay.service.request.ListQuery;
import dev.cryptopay.service.response.Envelope;
import dev.cryptopay.service.response.Page;
import org.springframework.util.MultiValueMap;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import reactor.core.publisher.Mono;

/**
 * The merchant-wide routes over the transfers of all its links (its own merchant and mode only):
 * {@code GET /payment_links/transactions} lists them, newest first; {@code GET /payment_links/totals} adds up what
 * they brought per currency and in USD, as each link's {@code summary} counts it. Their literal paths take precedence
 * over {@code /payment_links/{id}}, as {@code /payment_links/currencies} does.
 */
@RestController
class MerchantTransferController {

    private final MerchantTransferService service;

    MerchantTransferController(MerchantTransferService service) {
        this.service = service;
    }

    @GetMapping("/payment_links/transactions")
    Mono<Envelope<Page<MerchantTransferResponse>>> list(
            MerchantIdentity merchant, @RequestParam MultiValueMap<String, String> params) {
        return Mono.fromSupplier(() -> MerchantTransferQuery.parse(params))
                .flatMap(query -> service.list(merchant, query)
                        .map(listed -> Envelope.of(
                                "Transactions retrieved successfully",
                                Page.of(
                                                listed.transfers().stream()
                                                        .map(MerchantTransferResponse::of)
                                                        .toList(),
                                                query.page(),
                                                listed.total())
                                        .withFilters(MerchantTransferResponse.Filters.of(query)))));
    }

    @GetMapping("/payment_links/totals")
    Mono<Envelope<MerchantTransferResponse.Totals>> totals(
            MerchantIdentity merchant, @RequestParam MultiValueMap<String, String> params) {
        return Mono.fromSupplier(() -> {
                    ListQuery query = new ListQuery(params);
                    ListQuery.DateRange created = query.dateRange("created_from", "created_to");
                    query.throwIfAny();
                    return created;
                })
                .flatMap(created -> service.totals(merchant, created.from(), created.to())
                        .map(totals -> Envelope.of(
                                "Totals retrieved successfully",
                                MerchantTransferResponse.Totals.of(totals, created.from(), created.to()))));
    }
}
