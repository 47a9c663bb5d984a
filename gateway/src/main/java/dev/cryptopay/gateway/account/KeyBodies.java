package dev.cryptopay.gateway.account;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.cryptopay.gateway.admin.MerchantAdmin.CreatedKey;
import dev.cryptopay.gateway.keys.KeyScope;
import dev.cryptopay.gateway.keys.StoredApiKey;
import dev.cryptopay.gateway.keys.StoredPublishableKey;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

/** The bodies of {@code /api/v1/account/keys}, written in snake_case by the shared JSON rules. Never a secret. */
final class KeyBodies {

    private KeyBodies() {}

    /**
     * One API key, by its prefix; {@code current} marks the key that signed this very request.
     */
    record ApiKeyBody(
            UUID id,
            String apiKeyPrefix,
            String mode,
            String algorithm,
            String status,
            boolean current,
            Instant createdAt,
            Instant lastUsedAt,
            Instant revokedAt,
            List<String> scopes) {

        static ApiKeyBody of(StoredApiKey key, UUID currentKeyId) {
            return new ApiKeyBody(
                    key.id(),
                    key.displayPrefix(),
                    key.mode().wireName(),
                    key.algorithm().wireName(),
                    key.status().wireName(),
                    key.id().equals(currentKeyId),
                    key.createdAt(),
                    key.lastUsedAt(),
                    key.revokedAt(),
                    KeyScope.wireNames(key.scopes()));
        }
    }

    /** A publishable key in full: it is public by design. */
    record PublishableKeyBody(
            UUID id,
            String publishableKey,
            String mode,
            String status,
            Instant createdAt,
            Instant lastUsedAt,
            Instant revokedAt) {

        static PublishableKeyBody of(StoredPublishableKey key) {
            return new PublishableKeyBody(
                    key.id(),
                    key.value(),
                    key.mode().wireName(),
                    key.status().wireName(),
                    key.createdAt(),
                    key.lastUsedAt(),
                    key.revokedAt());
        }
    }

    /**
     * One page of the mode's API keys (newest first) and all of its publishable keys, which only the operator issues.
     * {@code total} counts the API keys; {@code total_pages} is 0 when there are none.
     */
    record KeyPage(
            List<ApiKeyBody> keys,
            List<PublishableKeyBody> publishableKeys,
            long total,
            int page,
            int pageSize,
            long totalPages) {}

    /** A new API key: the key itself and, when the gateway generated the pair, the private key, only in this answer. */
    record CreatedKeyBody(
            UUID id,
            String apiKey,
            String apiKeyPrefix,
            UUID merchantId,
            String mode,
            String algorithm,
            String status,
            String publicKey,
            Instant createdAt,
            List<String> scopes,
            @JsonInclude(JsonInclude.Include.NON_NULL) String privateKeyPem,
            @JsonInclude(JsonInclude.Include.NON_NULL) String privateKey) {

        static CreatedKeyBody of(CreatedKey created) {
            StoredApiKey stored = created.stored();
            boolean generated = created.generated() != null;
            return new CreatedKeyBody(
                    stored.id(),
                    created.apiKey().value(),
                    stored.displayPrefix(),
                    stored.merchantId(),
                    stored.mode().wireName(),
                    stored.algorithm().wireName(),
                    stored.status().wireName(),
                    stored.publicKeyPem(),
                    stored.createdAt(),
                    KeyScope.wireNames(stored.scopes()),
                    generated ? created.generated().privateKeyPem() : null,
                    generated ? created.generated().privateKeyCompact() : null);
        }
    }
}
