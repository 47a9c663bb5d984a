package dev.cryptopay.gateway.production;

import dev.cryptopay.auth.Mode;
import dev.cryptopay.gateway.keys.KeyStatus;
import dev.cryptopay.gateway.keys.PublishableKey;
import dev.cryptopay.gateway.keys.PublishableKeyRepository;
import dev.cryptopay.gateway.keys.StoredPublishableKey;
import dev.cryptopay.service.error.ApiException;
import dev.cryptopay.service.request.PageRequest;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.springframework.transaction.reactive.TransactionalOperator;
import reactor.core.publisher.Mono;

/**
 * Requests for production access and their decision. A merchant asks once (a second request while one is pending
 * answers the pending one; after an approval, the approved one); the operator approves or rejects. Approving gives
 * the merchant a live publishable key in the same transaction when it has none, so a merchant going live has both
 * kinds of live key without waiting for the operator again.
 */
public class ProductionAccess {

    private final AccessRequestRepository requests;
    private final PublishableKeyRepository publishableKeys;
    private final TransactionalOperator transactions;
    private final Clock clock;
    private final SecureRandom random;

    public ProductionAccess(
            AccessRequestRepository requests,
            PublishableKeyRepository publishableKeys,
            TransactionalOperator transactions,
            Clock clock,
            SecureRandom random) {
        this.requests = requests;
        this.publishableKeys = publishableKeys;
        this.transactions = transactions;
        this.clock = clock;
        this.random = random;
    }

    /** A request as asked for: the stored one, and whether this call stored it (201) or found it (200). */
    public record Asked(AccessRequest request, boolean created) {}

    /** One page of requests in a status, with the number of all of them. */
    public record Listed(List<AccessRequest> requests, long total) {}

    /**
     * Asks for production access. Answers the merchant's approved request when there is one, its pending request when
     * one is open (whatever this call's details), and otherwise a new pending request.
     *
     * @param company optional, already validated
     * @param website optional, already validated
     * @param useCase required, already validated
     */
    public Mono<Asked> ask(UUID merchantId, String company, String website, String useCase) {
        return requests.latestOf(merchantId)
                .filter(latest -> latest.status() != AccessStatus.REJECTED)
                .map(open -> new Asked(open, false))
                .switchIfEmpty(Mono.defer(() -> {
                    UUID id = UUID.randomUUID();
                    return requests.insertPending(id, merchantId, company, website, useCase, now())
                            .flatMap(stored -> stored
                                    ? requests.find(id).map(request -> new Asked(request, true))
                                    // Another request of this merchant got in first: answer that one.
                                    : requests.latestOf(merchantId).map(request -> new Asked(request, false)));
                }));
    }

    /** The merchant's most recent request, or empty when it never asked. */
    public Mono<Optional<AccessRequest>> latest(UUID merchantId) {
        return requests.latestOf(merchantId).map(Optional::of).defaultIfEmpty(Optional.empty());
    }

    /** Whether the merchant may create live keys. */
    public Mono<Boolean> isApproved(UUID merchantId) {
        return requests.isApproved(merchantId);
    }

    public Mono<Listed> list(AccessStatus status, PageRequest page) {
        return requests.findByStatus(status, page.offset(), page.size())
                .collectList()
                .flatMap(found -> requests.countByStatus(status).map(total -> new Listed(found, total)));
    }

    /**
     * Approves a pending request and issues a live publishable key if the merchant has no active one; approving an
     * approved request again answers it unchanged. 404 for an unknown id, 409 {@code already_decided} for a rejected
     * one.
     */
    public Mono<AccessRequest> approve(String idText) {
        return decide(idText, AccessStatus.APPROVED, null);
    }

    /**
     * Rejects a pending request with an optional reason the merchant sees; rejecting a rejected request again answers
     * it unchanged. 404 for an unknown id, 409 {@code already_decided} for an approved one.
     */
    public Mono<AccessRequest> reject(String idText, String reason) {
        return decide(idText, AccessStatus.REJECTED, reason);
    }

    private Mono<AccessRequest> decide(String idText, AccessStatus decision, String reason) {
        UUID id;
        try {
            id = UUID.fromString(idText == null ? "" : idText.strip());
        } catch (IllegalArgumentException e) {
            return Mono.error(ApiException.notFound("No production access request with id " + idText));
        }
        Instant now = now();
        Mono<AccessRequest> decided = requests.decide(id, decision, reason, now)
                .flatMap(changed -> requests.find(id)
                        .switchIfEmpty(Mono.error(
                                () -> ApiException.notFound("No production access request with id " + idText)))
                        .flatMap(request -> {
                            if (request.status() != decision) {
                                return Mono.error(ApiException.conflict(
                                        "already_decided",
                                        "This request was already "
                                                + request.status().wireName()));
                            }
                            return changed && decision == AccessStatus.APPROVED
                                    ? issueLivePublishableKey(request.merchantId(), now)
                                            .thenReturn(request)
                                    : Mono.just(request);
                        }));
        return transactions.transactional(decided);
    }

    private Mono<Void> issueLivePublishableKey(UUID merchantId, Instant now) {
        return publishableKeys
                .hasActive(merchantId, Mode.LIVE)
                .flatMap(has -> has
                        ? Mono.empty()
                        : publishableKeys
                                .insert(new StoredPublishableKey(
                                        UUID.randomUUID(),
                                        PublishableKey.generate(Mode.LIVE, random)
                                                .value(),
                                        merchantId,
                                        Mode.LIVE,
                                        KeyStatus.ACTIVE,
                                        now,
                                        null,
                                        null))
                                .then());
    }

    private Instant now() {
        // PostgreSQL keeps microseconds; truncating here makes what we return equal what we later read back.
        return clock.instant().truncatedTo(ChronoUnit.MICROS);
    }
}
