package dev.cryptopay.paymentlinks.currency;

import dev.cryptopay.auth.internal.MerchantIdentity;
import dev.cryptopay.service.response.Envelope;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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

    @GetMapping("/payment_links/currencies")
    Mono<Map<String, Object>> list(MerchantIdentity merchant) {
        return catalog.all().map(currencies -> {
            List<Map<String, Object>> data = currencies.stream()
                    .map(currency -> {
                        Map<String, Object> item = new LinkedHashMap<>();
                        item.put("id", currency.id().toString());
                        item.put("code", currency.code());
                        item.put("name", currency.name());
                        return item;
                    })
                    .toList();
            return Envelope.of("Currencies retrieved successfully", data);
        });
    }
}
