package dev.cryptopay.paymentlinks.receiving;

import dev.cryptopay.paymentlinks.config.PaymentLinksProperties;
import dev.cryptopay.service.events.EventType;
import dev.cryptopay.service.outbox.DomainEvent;
import dev.cryptopay.service.outbox.OutboxWriter;
import java.time.Instant;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;

/** Writes {@code account.receiving_key.updated}: the key every new link's deposit address comes from changed. */
@Component
class ReceivingKeyEvents {

    private final OutboxWriter outbox;
    private final PaymentLinksProperties properties;

    ReceivingKeyEvents(OutboxWriter outbox, PaymentLinksProperties properties) {
        this.outbox = outbox;
        this.properties = properties;
    }

    /**
     * The {@code data} of {@code account.receiving_key.updated} (every member present, null without a value).
     *
     * @param extendedPublicKey   the key now current
     * @param fingerprint         its parent fingerprint, 8 hex digits, as the receiving key route shows it
     * @param firstAddress        the address of its child 0: what the merchant's wallet shows as its first account
     * @param previousFingerprint the fingerprint of the key it replaced; null for the mode's first key
     * @param previousFirstAddress the child 0 address of the key it replaced; null for the mode's first key
     * @param updatedAt           when it changed
     */
    record ReceivingKeyEventData(
            String extendedPublicKey,
            String keyNetwork,
            String fingerprint,
            String firstAddress,
            String previousFingerprint,
            String previousFirstAddress,
            Instant updatedAt) {}

    Mono<Void> updated(ReceivingKey current, ReceivingKey previous, Instant now) {
        var shown = ReceivingKeyController.ReceivingKeyResponse.of(current);
        var before = previous == null ? null : ReceivingKeyController.ReceivingKeyResponse.of(previous);
        ReceivingKeyEventData data = new ReceivingKeyEventData(
                shown.extendedPublicKey(),
                shown.keyNetwork(),
                shown.fingerprint(),
                shown.firstAddress(),
                before == null ? null : before.fingerprint(),
                before == null ? null : before.firstAddress(),
                now);
        return outbox.append(
                properties.topic(),
                DomainEvent.of(
                        EventType.ACCOUNT_RECEIVING_KEY_UPDATED,
                        now,
                        current.merchantId(),
                        current.mode(),
                        "receiving_key",
                        current.id().toString(),
                        data));
    }
}
