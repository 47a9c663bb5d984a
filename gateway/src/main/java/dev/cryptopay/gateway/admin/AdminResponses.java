package dev.cryptopay.gateway.admin;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.cryptopay.gateway.admin.MerchantAdmin.CreatedKey;
import dev.cryptopay.gateway.keys.Merchant;
import dev.cryptopay.gateway.keys.StoredApiKey;
import dev.cryptopay.gateway.keys.StoredPublishableKey;
import dev.cryptopay.gateway.production.AccessRequest;
import dev.cryptopay.gateway.production.ProductionAccess;
import dev.cryptopay.service.request.PageRequest;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

/** The admin API's response bodies, written in snake_case by the shared JSON rules. */
final class AdminResponses {

    private AdminResponses() {}

    record MerchantBody(UUID id, String name, String email, Instant createdAt) {

        static MerchantBody of(Merchant merchant) {
            return new MerchantBody(merchant.id(), merchant.name(), merchant.email(), merchant.createdAt());
        }
    }

    /** A new key; the private key appears only when the gateway generated the pair, and only in this response. */
    record CreatedKeyBody(
            String apiKey,
            String apiKeyPrefix,
            UUID merchantId,
            String mode,
            String algorithm,
            String publicKey,
            @JsonInclude(JsonInclude.Include.NON_NULL) String privateKeyPem,
            @JsonInclude(JsonInclude.Include.NON_NULL) String privateKey) {

        static CreatedKeyBody of(CreatedKey created) {
            StoredApiKey stored = created.stored();
            boolean generated = created.generated() != null;
            return new CreatedKeyBody(
                    created.apiKey().value(),
                    stored.displayPrefix(),
                    stored.merchantId(),
                    stored.mode().wireName(),
                    stored.algorithm().wireName(),
                    stored.publicKeyPem(),
                    generated ? created.generated().privateKeyPem() : null,
                    generated ? created.generated().privateKeyCompact() : null);
        }
    }

    record KeyBody(
            UUID id,
            String apiKeyPrefix,
            String mode,
            String algorithm,
            String status,
            Instant createdAt,
            Instant lastUsedAt,
            Instant revokedAt) {

        static KeyBody of(StoredApiKey key) {
            return new KeyBody(
                    key.id(),
                    key.displayPrefix(),
                    key.mode().wireName(),
                    key.algorithm().wireName(),
                    key.status().wireName(),
                    key.createdAt(),
                    key.lastUsedAt(),
                    key.revokedAt());
        }
    }

    /** A publishable key, shown in full (it is public by design) whenever it is listed. */
    record PublishableKeyBody(
            UUID id,
            String publishableKey,
            UUID merchantId,
            String mode,
            String status,
            Instant createdAt,
            Instant lastUsedAt,
            Instant revokedAt) {

        static PublishableKeyBody of(StoredPublishableKey key) {
            return new PublishableKeyBody(
                    key.id(),
                    key.value(),
                    key.merchantId(),
                    key.mode().wireName(),
                    key.status().wireName(),
                    key.createdAt(),
                    key.lastUsedAt(),
                    key.revokedAt());
        }
    }

    /** A merchant's keys: secret API keys (prefixes only) and publishable keys (in full). */
    record KeyList(List<KeyBody> keys, List<PublishableKeyBody> publishableKeys) {}

    /** A production access request, with its merchant's name and e-mail address for the operator. */
    record AccessRequestBody(
            UUID id,
            UUID merchantId,
            String merchantName,
            String merchantEmail,
            String company,
            String website,
            String useCase,
            String status,
            String reason,
            Instant createdAt,
            Instant decidedAt) {

        static AccessRequestBody of(AccessRequest request) {
            return new AccessRequestBody(
                    request.id(),
                    request.merchantId(),
                    request.merchantName(),
                    request.merchantEmail(),
                    request.company(),
                    request.website(),
                    request.useCase(),
                    request.status().wireName(),
                    request.reason(),
                    request.createdAt(),
                    request.decidedAt());
        }
    }

    /** One page of requests in a status; {@code total_pages} is 0 when there are none. */
    record AccessRequestList(List<AccessRequestBody> requests, long total, int page, int pageSize, long totalPages) {

        static AccessRequestList of(ProductionAccess.Listed listed, PageRequest page) {
            return new AccessRequestList(
                    listed.requests().stream().map(AccessRequestBody::of).toList(),
                    listed.total(),
                    page.page(),
                    page.size(),
                    (listed.total() + page.size() - 1) / page.size());
        }
    }
}
