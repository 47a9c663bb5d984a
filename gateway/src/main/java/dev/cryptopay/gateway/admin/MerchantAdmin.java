package dev.cryptopay.gateway.admin;

import dev.cryptopay.auth.Mode;
import dev.cryptopay.auth.apikey.ApiKey;
import dev.cryptopay.auth.keys.Ed25519KeyPairs;
import dev.cryptopay.auth.keys.GeneratedKeyPair;
import dev.cryptopay.auth.keys.KeyAlgorithm;
import dev.cryptopay.auth.keys.VerificationKey;
import dev.cryptopay.gateway.keys.ApiKeyHash;
import dev.cryptopay.gateway.keys.KeyRepository;
import dev.cryptopay.gateway.keys.KeyRevocations;
import dev.cryptopay.gateway.keys.KeyScope;
import dev.cryptopay.gateway.keys.KeyStatus;
import dev.cryptopay.gateway.keys.Merchant;
import dev.cryptopay.gateway.keys.PublishableKey;
import dev.cryptopay.gateway.keys.PublishableKeyRepository;
import dev.cryptopay.gateway.keys.StoredApiKey;
import dev.cryptopay.gateway.keys.StoredPublishableKey;
import dev.cryptopay.service.error.ApiException;
import dev.cryptopay.service.error.FieldError;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.function.Consumer;
import java.util.regex.Pattern;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Merchant and key administration: what the admin API and the command line both do, with the same validation.
 * Failures are {@link ApiException}s so the admin API can render them as problems and the command line can print
 * their message.
 */
public class MerchantAdmin {

    private static final Pattern EMAIL = Pattern.compile("[^@\\s]+@[^@\\s]+\\.[^@\\s]+");

    /** The refusal of a value that is neither kind of key. */
    static final String MALFORMED_KEY = "Malformed key: expected mk_test_ or mk_live_ (API key) or pk_test_ or "
            + "pk_live_ (publishable key) followed by 32 characters A-Z2-7";

    private final KeyRepository repository;
    private final PublishableKeyRepository publishableKeys;
    private final KeyRevocations revocations;
    private final Clock clock;
    private final SecureRandom random;
    private final Consumer<String> onRevoked;

    /**
     * @param onRevoked told the revoked key's value, so a running gateway can drop it from its cache at once
     */
    public MerchantAdmin(
            KeyRepository repository,
            PublishableKeyRepository publishableKeys,
            KeyRevocations revocations,
            Clock clock,
            SecureRandom random,
            Consumer<String> onRevoked) {
        this.repository = repository;
        this.publishableKeys = publishableKeys;
        this.revocations = revocations;
        this.clock = clock;
        this.random = random;
        this.onRevoked = onRevoked;
    }

    /** A newly created key: the secret API key (shown once) and, when we generated the pair, its private key. */
    public record CreatedKey(ApiKey apiKey, StoredApiKey stored, GeneratedKeyPair generated) {}

    /** A key just revoked (or found revoked already), of either kind. */
    public record RevokedKey(String displayPrefix, Instant revokedAt) {}

    public Mono<Merchant> createMerchant(String name, String email) {
        List<FieldError> errors = new ArrayList<>();
        String cleanName = name == null ? "" : name.strip();
        String cleanEmail = email == null ? "" : email.strip();
        if (cleanName.isEmpty() || cleanName.length() > 200) {
            errors.add(new FieldError("name", "name is required (1 to 200 characters)"));
        }
        if (cleanEmail.length() > 320 || !EMAIL.matcher(cleanEmail).matches()) {
            errors.add(new FieldError("email", "email must be a valid e-mail address"));
        }
        if (!errors.isEmpty()) {
            return Mono.error(ApiException.validation(errors));
        }
        Merchant merchant = new Merchant(UUID.randomUUID(), cleanName, cleanEmail, now());
        return repository.insertMerchant(merchant);
    }

    /**
     * Creates a key for the merchant. Without {@code publicKeyPem} the gateway generates an Ed25519 pair and returns
     * the private key once; with it, the merchant keeps their private key and we store only the public one.
     *
     * @param modeText      {@code test} or {@code live}
     * @param algorithmText optional {@code ed25519} or {@code rsa-pss-sha256}; must match the public key if given
     * @param publicKeyPem  optional SPKI PEM
     */
    public Mono<CreatedKey> createKey(
            String merchantIdText, String modeText, String algorithmText, String publicKeyPem) {
        return createKey(merchantIdText, modeText, algorithmText, publicKeyPem, KeyScope.ALL);
    }

    /** {@link #createKey(String, String, String, String)} for a key with only these scopes (at least one). */
    public Mono<CreatedKey> createKey(
            String merchantIdText, String modeText, String algorithmText, String publicKeyPem, Set<KeyScope> scopes) {
        if (scopes.isEmpty()) {
            return Mono.error(ApiException.invalidField("invalid_scopes", "scopes", "A key needs at least one scope"));
        }
        UUID merchantId;
        Mode mode;
        KeyAlgorithm algorithm;
        try {
            merchantId = merchantId(merchantIdText);
            mode = parseMode(modeText);
            algorithm = algorithmText == null || algorithmText.isBlank() ? null : parseAlgorithm(algorithmText);
        } catch (ApiException e) {
            return Mono.error(e);
        }
        VerificationKey verificationKey = null;
        GeneratedKeyPair generated = null;
        if (publicKeyPem != null && !publicKeyPem.isBlank()) {
            try {
                verificationKey = VerificationKey.parse(publicKeyPem);
            } catch (IllegalArgumentException e) {
                return Mono.error(ApiException.invalidField("invalid_public_key", "public_key", e.getMessage()));
            }
            if (algorithm != null && algorithm != verificationKey.algorithm()) {
                return Mono.error(ApiException.invalidField(
                        "algorithm_mismatch",
                        "algorithm",
                        "algorithm is " + algorithm.wireName() + " but public_key is a "
                                + verificationKey.algorithm().wireName() + " key"));
            }
        } else {
            if (algorithm == KeyAlgorithm.RSA_PSS_SHA256) {
                return Mono.error(ApiException.invalidField(
                        "public_key_required",
                        "public_key",
                        "public_key is required for rsa-pss-sha256 keys; the gateway only generates Ed25519 pairs"));
            }
            generated = Ed25519KeyPairs.generate(random);
            verificationKey = VerificationKey.parse(generated.publicKeyPem());
        }
        ApiKey apiKey = ApiKey.generate(mode, random);
        StoredApiKey stored = new StoredApiKey(
                UUID.randomUUID(),
                apiKey.displayPrefix(),
                merchantId,
                mode,
                verificationKey.algorithm(),
                verificationKey.toPem(),
                KeyStatus.ACTIVE,
                now(),
                null,
                null,
                Set.copyOf(scopes));
        GeneratedKeyPair pair = generated;
        return requireMerchant(merchantId)
                .then(repository.insertKey(stored, ApiKeyHash.of(apiKey.value())))
                .map(saved -> new CreatedKey(apiKey, saved, pair));
    }

    public Flux<StoredApiKey> listKeys(String merchantIdText) {
        UUID merchantId;
        try {
            merchantId = merchantId(merchantIdText);
        } catch (ApiException e) {
            return Flux.error(e);
        }
        return requireMerchant(merchantId).thenMany(repository.findKeysOfMerchant(merchantId));
    }

    /**
     * Issues a publishable key ({@code pk_test_…} / {@code pk_live_…}) for the merchant: the key its customer-side code
     * may carry as {@code merchant_key}. It is stored in full, being public by design.
     */
    public Mono<StoredPublishableKey> createPublishableKey(String merchantIdText, String modeText) {
        UUID merchantId;
        Mode mode;
        try {
            merchantId = merchantId(merchantIdText);
            mode = parseMode(modeText);
        } catch (ApiException e) {
            return Mono.error(e);
        }
        StoredPublishableKey key = new StoredPublishableKey(
                UUID.randomUUID(),
                PublishableKey.generate(mode, random).value(),
                merchantId,
                mode,
                KeyStatus.ACTIVE,
                now(),
                null,
                null);
        return requireMerchant(merchantId).then(publishableKeys.insert(key));
    }

    public Flux<StoredPublishableKey> listPublishableKeys(String merchantIdText) {
        UUID merchantId;
        try {
            merchantId = merchantId(merchantIdText);
        } catch (ApiException e) {
            return Flux.error(e);
        }
        return requireMerchant(merchantId).thenMany(publishableKeys.findKeysOfMerchant(merchantId));
    }

    /**
     * Revokes an API key or a publishable key, told apart by the prefix, announcing it to the merchant
     * ({@code account.key.revoked}); revoking an already revoked key succeeds again (idempotent) and announces nothing.
     */
    public Mono<RevokedKey> revoke(String keyText) {
        Mono<RevokedKey> revoked;
        if (PublishableKey.isWellFormed(keyText)) {
            revoked = revocations
                    .publishableKeyByOperator(keyText, now())
                    .map(key -> new RevokedKey(key.displayPrefix(), key.revokedAt()));
        } else if (ApiKey.isWellFormed(keyText)) {
            revoked = revocations
                    .apiKeyByOperator(ApiKeyHash.of(keyText), now())
                    .map(key -> new RevokedKey(key.displayPrefix(), key.revokedAt()));
        } else {
            return Mono.error(ApiException.invalidField("malformed_api_key", "api_key", MALFORMED_KEY));
        }
        return revoked.switchIfEmpty(Mono.error(() -> ApiException.notFound("No such key")))
                .doOnNext(key -> onRevoked.accept(keyText));
    }

    private Mono<Merchant> requireMerchant(UUID merchantId) {
        return repository
                .findMerchant(merchantId)
                .switchIfEmpty(Mono.error(() -> ApiException.notFound("No merchant with id " + merchantId)));
    }

    private Instant now() {
        // PostgreSQL keeps microseconds; truncating here makes what we return equal what we later read back.
        return clock.instant().truncatedTo(ChronoUnit.MICROS);
    }

    private static UUID merchantId(String text) {
        try {
            return UUID.fromString(text == null ? "" : text.strip());
        } catch (IllegalArgumentException e) {
            throw ApiException.notFound("No merchant with id " + text);
        }
    }

    private static Mode parseMode(String text) {
        try {
            return Mode.fromWireName(text);
        } catch (IllegalArgumentException e) {
            throw ApiException.invalidField("invalid_mode", "mode", "mode must be 'test' or 'live'");
        }
    }

    private static KeyAlgorithm parseAlgorithm(String text) {
        try {
            return KeyAlgorithm.fromWireName(text);
        } catch (IllegalArgumentException e) {
            throw ApiException.invalidField(
                    "invalid_algorithm", "algorithm", "algorithm must be 'ed25519' or 'rsa-pss-sha256'");
        }
    }
}
