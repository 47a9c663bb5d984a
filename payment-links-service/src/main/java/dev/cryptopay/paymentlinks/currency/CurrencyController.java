package dev.cryptopay.paymentlinks.currency;

import dev.cryptopay.auth.internal.MerchantIdentity;
import dev.cryptopay.service.response.Envelope;
import java.util.List;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;
import reactor.core.publisher.Mono;

/** {@code GET /payment_links/currencies}: one entry per supported code; the network is the service's choice. */
@RestController
class CurrencyController {

    private final CurrencyCatalog catalog;

    CurrencyController(CurrencyCatalog catalog) {
        this.catalog = catalog;
    }

    record CurrencyResponse(String id, String code, String name) {}

    @GetMapping("/payment_links/currencies")
    Mono<Envelope<List<CurrencyResponse>>> list(MerchantIdentity merchant) {
        return catalog.all()
                .map(currencies -> Envelope.of(
                        "Currencies retrieved successfully",
                        currencies.stream()
                                .map(currency -> new CurrencyResponse(
                                        currency.id().toString(), currency.code(), currency.name()))
                                .toList()));
    }
}
