package dev.cryptopay.paymentlinks.deposit;

import dev.cryptopay.auth.internal.MerchantIdentity;
import dev.cryptopay.service.money.Amounts;
import dev.cryptopay.service.request.DecimalField;
import dev.cryptopay.service.request.Field;
import dev.cryptopay.service.request.JsonBody;
import dev.cryptopay.service.request.Violations;
import dev.cryptopay.service.response.Envelope;
import java.math.BigDecimal;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code GET} and {@code PUT /payment_links/deposit_settings}: the merchant's deposit settings for the API key's mode.
 * A {@code PUT} sets every member (there is one); the answer is the settings as stored.
 */
@RestController
class DepositSettingsController {

    private static final String PATH = "/payment_links/deposit_settings";

    static final DecimalField WEBHOOK_MINIMUM_USD =
            Field.money("deposit_webhook_minimum_usd").required().allowZero();
    static final List<String> FIELDS = Field.names(WEBHOOK_MINIMUM_USD);

    private final DepositSettingsRepository settings;
    private final JsonMapper json;
    private final Clock clock;

    DepositSettingsController(DepositSettingsRepository settings, JsonMapper json, Clock clock) {
        this.settings = settings;
        this.json = json;
        this.clock = clock;
    }

    /**
     * @param depositWebhookMinimumUsd deposits worth less (in USD, as priced when confirmed) send no
     *                                 {@code wallet.deposit}
     * @param updatedAt                null while the defaults apply
     */
    record DepositSettingsResponse(BigDecimal depositWebhookMinimumUsd, Instant updatedAt) {

        static DepositSettingsResponse of(DepositSettings settings) {
            return new DepositSettingsResponse(Amounts.jsonNumber(settings.webhookMinimumUsd()), settings.updatedAt());
        }
    }

    @GetMapping(PATH)
    Mono<Envelope<DepositSettingsResponse>> get(MerchantIdentity merchant) {
        return settings.of(merchant)
                .map(found -> Envelope.of("Deposit settings retrieved", DepositSettingsResponse.of(found)));
    }

    @PutMapping(PATH)
    Mono<Envelope<DepositSettingsResponse>> put(MerchantIdentity merchant, @RequestBody(required = false) String body) {
        return Mono.fromSupplier(() -> parse(body))
                .flatMap(minimum -> settings.save(merchant, minimum, clock.instant()))
                .map(saved -> Envelope.of("Deposit settings updated", DepositSettingsResponse.of(saved)));
    }

    private BigDecimal parse(String body) {
        JsonNode root = JsonBody.object(json, body);
        Violations violations = new Violations();
        violations.rejectUnknown(root, "", FIELDS);
        BigDecimal minimum = WEBHOOK_MINIMUM_USD.read(root, violations);
        violations.throwIfAny();
        return minimum;
    }
}
