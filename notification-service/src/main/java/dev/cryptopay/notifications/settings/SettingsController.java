package dev.cryptopay.notifications.settings;

import dev.cryptopay.auth.Mode;
import dev.cryptopay.auth.internal.MerchantIdentity;
import dev.cryptopay.service.response.Envelope;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import org.springframework.transaction.reactive.TransactionalOperator;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;
import reactor.core.publisher.Mono;
import tools.jackson.databind.json.JsonMapper;

/** {@code GET} and {@code PUT /notifications/settings}: the key's merchant and mode only. */
@RestController
class SettingsController {

    private final SettingsRepository settings;
    private final TransactionalOperator tx;
    private final JsonMapper json;
    private final Clock clock;

    SettingsController(SettingsRepository settings, TransactionalOperator tx, JsonMapper json, Clock clock) {
        this.settings = settings;
        this.tx = tx;
        this.json = json;
        this.clock = clock;
    }

    @GetMapping("/notifications/settings")
    Mono<Envelope<SettingsResponse>> get(MerchantIdentity merchant) {
        return settings.find(merchant)
                .map(found -> Envelope.of(
                        "Notification settings retrieved", SettingsResponse.of(found, merchant.mode() == Mode.LIVE)));
    }

    /** Changes what the body names; the read and the write are one transaction, so two updates never mix. */
    @PutMapping("/notifications/settings")
    Mono<Envelope<SettingsResponse>> update(MerchantIdentity merchant, @RequestBody(required = false) String body) {
        return Mono.fromSupplier(() -> SettingsUpdate.parse(json, body))
                .flatMap(update -> {
                    // What the database keeps (microseconds), so the answer equals every later read.
                    Instant now = clock.instant().truncatedTo(ChronoUnit.MICROS);
                    return tx.transactional(settings.lock(merchant)
                            .then(settings.find(merchant))
                            .map(current -> update.applyTo(current, now))
                            .flatMap(updated ->
                                    settings.save(merchant, updated, now).thenReturn(updated)));
                })
                .map(updated -> Envelope.of(
                        "Notification settings updated", SettingsResponse.of(updated, merchant.mode() == Mode.LIVE)));
    }
}
