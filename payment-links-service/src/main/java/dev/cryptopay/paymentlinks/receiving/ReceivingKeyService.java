package dev.cryptopay.paymentlinks.receiving;

import dev.cryptopay.auth.Mode;
import dev.cryptopay.auth.bip32.ExtendedPublicKey;
import dev.cryptopay.auth.bip32.ExtendedPublicKey.InvalidKeyText;
import dev.cryptopay.auth.bip32.ExtendedPublicKey.KeyNetwork;
import dev.cryptopay.auth.internal.MerchantIdentity;
import dev.cryptopay.service.error.ApiException;
import dev.cryptopay.service.request.Violations;
import java.time.Clock;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;
import org.springframework.stereotype.Service;
import org.springframework.transaction.reactive.TransactionalOperator;
import reactor.core.publisher.Mono;

/**
 * Registering a merchant's receiving key per mode, and handing out deposit addresses from it. Live mode takes only
 * mainnet keys ({@code xpub}); test mode takes both. A key registered by one merchant and mode cannot be registered
 * by another, so a deposit address always names one link.
 */
@Service
public class ReceivingKeyService {

    /** The request field a key arrives in. */
    public static final String FIELD = "extended_public_key";

    private static final String INVALID = "invalid_receiving_key";

    private final ReceivingKeyRepository keys;
    private final ReceivingKeyEvents events;
    private final TransactionalOperator tx;
    private final Clock clock;

    public ReceivingKeyService(
            ReceivingKeyRepository keys, ReceivingKeyEvents events, TransactionalOperator tx, Clock clock) {
        this.keys = keys;
        this.events = events;
        this.tx = tx;
        this.clock = clock;
    }

    /** The key now current and whether this call registered it for the first time. */
    public record Registered(ReceivingKey key, boolean created) {}

    /**
     * Validates the text; registers it (or makes it current again) for the merchant's mode. A change of the current
     * key is announced as {@code account.receiving_key.updated} in the same transaction: it decides where every new
     * link's money goes, so a merchant hears of it even when it was not the merchant who made it.
     */
    public Mono<Registered> register(MerchantIdentity merchant, String text) {
        ExtendedPublicKey key = parse(merchant.mode(), text);
        Instant now = clock.instant();
        Mono<Registered> work = keys.lockMerchant(merchant)
                .then(keys.current(merchant).map(Optional::of).defaultIfEmpty(Optional.empty()))
                .flatMap(before -> keys.withMaterial(key.material())
                        .map(existing -> reuse(merchant, existing, key, now))
                        .switchIfEmpty(Mono.fromSupplier(() -> insert(merchant, key, now)))
                        .flatMap(change -> change)
                        .flatMap(registered -> changed(before, registered)
                                ? events.updated(registered.key(), before.orElse(null), now)
                                        .thenReturn(registered)
                                : Mono.just(registered)));
        return tx.transactional(work);
    }

    private static boolean changed(Optional<ReceivingKey> before, Registered registered) {
        return before.map(previous -> !previous.id().equals(registered.key().id())
                        || !previous.key()
                                .serialize()
                                .equals(registered.key().key().serialize()))
                .orElse(true);
    }

    private Mono<Registered> reuse(
            MerchantIdentity merchant, ReceivingKey existing, ExtendedPublicKey key, Instant now) {
        if (!existing.merchantId().equals(merchant.merchantId()) || existing.mode() != merchant.mode()) {
            throw ApiException.conflict(
                    "receiving_key_in_use", "This receiving key is already registered to another account or mode");
        }
        if (existing.current() && existing.key().serialize().equals(key.serialize())) {
            return Mono.just(new Registered(existing, false));
        }
        return keys.retireCurrent(merchant, now)
                .then(keys.makeCurrent(existing.id(), key.serialize(), now))
                .then(keys.current(merchant))
                .map(current -> new Registered(current, false));
    }

    private Mono<Registered> insert(MerchantIdentity merchant, ExtendedPublicKey key, Instant now) {
        ReceivingKey created =
                new ReceivingKey(UUID.randomUUID(), merchant.merchantId(), merchant.mode(), key, 0, true, now, now);
        return keys.current(merchant)
                .hasElement()
                .flatMap(replacing -> keys.retireCurrent(merchant, now)
                        .then(keys.insert(created))
                        .thenReturn(new Registered(created, !replacing)));
    }

    /** The merchant's current key for the mode; 404 when none is registered. */
    public Mono<ReceivingKey> current(MerchantIdentity merchant) {
        return keys.current(merchant)
                .switchIfEmpty(Mono.error(() -> ApiException.notFound(
                        "No receiving key is registered for " + merchant.mode().wireName() + " mode")));
    }

    /**
     * The next deposit address of the merchant's current key, taken by one statement (in the caller's transaction when
     * there is one); empty when the merchant has not registered a key for the mode. An index BIP-32 declares invalid
     * is skipped.
     */
    public Mono<DepositAddress> allocate(MerchantIdentity merchant) {
        Instant now = clock.instant();
        return keys.takeNextIndex(merchant, now).flatMap(key -> {
            int index = Math.toIntExact(key.nextIndex());
            return key.key()
                    .child(index)
                    .map(child -> Mono.just(new DepositAddress(key.id(), index, EthereumAddress.of(child))))
                    .orElseGet(() -> allocate(merchant));
        });
    }

    private static ExtendedPublicKey parse(Mode mode, String text) {
        Violations violations = new Violations();
        try {
            ExtendedPublicKey key = ExtendedPublicKey.parse(text);
            if (mode == Mode.LIVE && key.network() != KeyNetwork.MAINNET) {
                violations.reject(INVALID, FIELD, "Live mode needs a mainnet key (xpub…); tpub keys are for test mode");
            }
            violations.throwIfAny();
            return key;
        } catch (InvalidKeyText invalid) {
            violations.reject(INVALID, FIELD, invalid.getMessage());
            violations.throwIfAny();
            throw invalid;
        }
    }
}
