package dev.cryptopay.subscriptions.keeper;

import dev.cryptopay.subscriptions.config.SubscriptionsProperties;
import dev.cryptopay.subscriptions.plan.Addresses;
import java.time.Clock;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.stereotype.Service;
import reactor.core.publisher.Mono;

/**
 * Which on-chain subscriptions the platform's keeper may collect. A subscription is in scope ({@code collect}) when a
 * link holds it that the chain confirmed for this service ({@code chain_status} subscribed, which needs the
 * invitation's {@code ref} in the wallet's own {@code subscribe}), that is active (neither stopped by its merchant nor
 * cancelled by its customer or the chain), not past its {@code expires_at}, on a plan of this chain that is not revoked,
 * and the keeper asks about the contract this service names for the chain. Anything else — a subscription nobody bound,
 * another contract's, a stopped one — is not, whatever the contract's logs say.
 */
@Service
class KeeperScope {

    /** Why a subscription is out of scope, most telling first. */
    enum Reason {
        OTHER_CONTRACT,
        NOT_BOUND,
        PLAN_REVOKED,
        STOPPED,
        EXPIRED;

        String wireName() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    /**
     * The answer for one id: whether to collect it, the merchant account of its link (for the keeper's fair share;
     * null when no link holds it) and, when not collected, why.
     */
    record Answer(String subscriptionId, boolean collect, UUID merchantId, String reason) {}

    private record Holder(String subscriptionId, UUID merchantId, boolean active, Instant expiresAt, boolean revoked) {}

    private final DatabaseClient database;
    private final SubscriptionsProperties properties;
    private final Clock clock;

    KeeperScope(DatabaseClient database, SubscriptionsProperties properties, Clock clock) {
        this.database = database;
        this.properties = properties;
        this.clock = clock;
    }

    /** One answer per id asked, in the order asked. */
    Mono<List<Answer>> answer(KeeperScopeRequest request) {
        boolean ourContract = properties
                .contract(request.chainId())
                .filter(contract -> Addresses.same(contract, request.contract()))
                .isPresent();
        if (!ourContract || request.subscriptionIds().isEmpty()) {
            return Mono.just(request.subscriptionIds().stream()
                    .map(id -> new Answer(id, false, null, Reason.OTHER_CONTRACT.wireName()))
                    .toList());
        }
        Instant now = clock.instant();
        return holders(request).map(found -> {
            List<Answer> answers = new ArrayList<>();
            for (String id : request.subscriptionIds()) {
                answers.add(answer(id, found.getOrDefault(id, List.of()), now));
            }
            return answers;
        });
    }

    /** The links the chain confirmed for the ids, on plans of the chain, grouped by id. */
    private Mono<Map<String, List<Holder>>> holders(KeeperScopeRequest request) {
        return database.sql("""
                        SELECT l.chain_subscription_id, l.merchant_id, l.is_active, l.expires_at, p.revoked
                        FROM subscription_link l
                            JOIN plan p ON p.id = l.plan_id
                            JOIN network n ON n.id = p.network_id
                        WHERE l.chain_subscription_id = ANY(:ids) AND l.chain_status = 'subscribed'
                              AND n.chain_id = :chain
                        ORDER BY l.created_at, l.id""")
                .bind("ids", request.subscriptionIds().toArray(String[]::new))
                .bind("chain", request.chainId())
                .map(row -> {
                    OffsetDateTime expires = row.get("expires_at", OffsetDateTime.class);
                    return new Holder(
                            row.get("chain_subscription_id", String.class),
                            row.get("merchant_id", UUID.class),
                            Boolean.TRUE.equals(row.get("is_active", Boolean.class)),
                            expires == null ? null : expires.toInstant(),
                            Boolean.TRUE.equals(row.get("revoked", Boolean.class)));
                })
                .all()
                .collect(Collectors.groupingBy(Holder::subscriptionId));
    }

    private static Answer answer(String id, List<Holder> holders, Instant now) {
        if (holders.isEmpty()) {
            return new Answer(id, false, null, Reason.NOT_BOUND.wireName());
        }
        for (Holder holder : holders) {
            if (reason(holder, now) == null) {
                return new Answer(id, true, holder.merchantId(), null);
            }
        }
        Holder first = holders.stream()
                .min(Comparator.comparing(holder -> reason(holder, now)))
                .orElseThrow();
        return new Answer(id, false, first.merchantId(), reason(first, now).wireName());
    }

    /** Why the link may not be collected, null when it may. */
    private static Reason reason(Holder holder, Instant now) {
        if (holder.revoked()) {
            return Reason.PLAN_REVOKED;
        }
        if (!holder.active()) {
            return Reason.STOPPED;
        }
        if (holder.expiresAt() != null && !holder.expiresAt().isAfter(now)) {
            return Reason.EXPIRED;
        }
        return null;
    }
}
