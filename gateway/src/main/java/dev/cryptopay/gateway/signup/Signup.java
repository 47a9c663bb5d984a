package dev.cryptopay.gateway.signup;

import dev.cryptopay.auth.Mode;
import dev.cryptopay.auth.apikey.ApiKey;
import dev.cryptopay.auth.keys.KeyAlgorithm;
import dev.cryptopay.auth.keys.VerificationKey;
import dev.cryptopay.gateway.keys.ApiKeyHash;
import dev.cryptopay.gateway.keys.KeyRepository;
import dev.cryptopay.gateway.keys.KeyScope;
import dev.cryptopay.gateway.keys.KeyStatus;
import dev.cryptopay.gateway.keys.Merchant;
import dev.cryptopay.gateway.keys.PublishableKey;
import dev.cryptopay.gateway.keys.PublishableKeyRepository;
import dev.cryptopay.gateway.keys.StoredApiKey;
import dev.cryptopay.gateway.keys.StoredPublishableKey;
import dev.cryptopay.service.error.ApiException;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.UUID;
import org.springframework.transaction.reactive.TransactionalOperator;
import reactor.core.publisher.Mono;

/**
 * Creates a merchant from a sign-up, in one transaction: the merchant, a test API key bound to the merchant's own
 * Ed25519 public key (the private key never reaches the gateway) and a test publishable key. Either all three exist
 * afterwards or none does.
 */
public class Signup {

    private final KeyRepository keys;
    private final PublishableKeyRepository publishableKeys;
    private final TransactionalOperator transactions;
    private final Clock clock;
    private final SecureRandom random;

    public Signup(
            KeyRepository keys,
            PublishableKeyRepository publishableKeys,
            TransactionalOperator transactions,
            Clock clock,
            SecureRandom random) {
        this.keys = keys;
        this.publishableKeys = publishableKeys;
        this.transactions = transactions;
        this.clock = clock;
        this.random = random;
    }

    /** What sign-up made: the new merchant, its API key (shown once) and its publishable key. */
    public record SignedUp(Merchant merchant, ApiKey apiKey, StoredPublishableKey publishableKey) {}

    /**
     * @param name         already validated
     * @param email        already validated
     * @param publicKeyPem an SPKI PEM; anything but an Ed25519 public key is a 400 {@code invalid_public_key}
     */
    public Mono<SignedUp> signUp(String name, String email, String publicKeyPem) {
        VerificationKey verificationKey;
        try {
            verificationKey = VerificationKey.parse(publicKeyPem);
        } catch (IllegalArgumentException e) {
            return Mono.error(ApiException.invalidField("invalid_public_key", "public_key", e.getMessage()));
        }
        if (verificationKey.algorithm() != KeyAlgorithm.ED25519) {
            return Mono.error(ApiException.invalidField(
                    "invalid_public_key", "public_key", "public_key must be an Ed25519 public key (SPKI PEM)"));
        }
        Instant now = clock.instant().truncatedTo(ChronoUnit.MICROS);
        Merchant merchant = new Merchant(UUID.randomUUID(), name, email, now);
        ApiKey apiKey = ApiKey.generate(Mode.TEST, random);
        StoredApiKey stored = new StoredApiKey(
                UUID.randomUUID(),
                apiKey.displayPrefix(),
                merchant.id(),
                Mode.TEST,
                KeyAlgorithm.ED25519,
                verificationKey.toPem(),
                KeyStatus.ACTIVE,
                now,
                null,
                null,
                KeyScope.ALL);
        StoredPublishableKey publishable = new StoredPublishableKey(
                UUID.randomUUID(),
                PublishableKey.generate(Mode.TEST, random).value(),
                merchant.id(),
                Mode.TEST,
                KeyStatus.ACTIVE,
                now,
                null,
                null);
        return transactions.transactional(keys.insertMerchant(merchant)
                .then(keys.insertKey(stored, ApiKeyHash.of(apiKey.value())))
                .then(publishableKeys.insert(publishable))
                .map(saved -> new SignedUp(merchant, apiKey, saved)));
    }
}
