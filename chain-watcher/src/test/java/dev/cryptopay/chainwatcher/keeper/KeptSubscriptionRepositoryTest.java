package dev.cryptopay.chainwatcher.keeper;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cryptopay.chainwatcher.ChainWatcherTestBase;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.r2dbc.core.DatabaseClient;

/**
 * Which subscriptions a pass looks at: after a burst of collects, the subscriptions they charged are stale (their
 * {@code Charged} logs came) and are read again first, but they have a limit of their own, so the due ones still get
 * theirs and the pass can spend its sends. Before, with checks equal to sends, such a pass read only stale ones and sent
 * nothing, halving the keeper's rate (docs/performance.md, The keeper at scale).
 */
class KeptSubscriptionRepositoryTest extends ChainWatcherTestBase {

    private static final long CHAIN = 9_000_000L + new java.util.Random().nextInt(1_000_000);
    private static final String CONTRACT = "0x" + "ab".repeat(20);

    @Autowired
    KeptSubscriptionRepository subscriptions;

    @Autowired
    DatabaseClient database;

    @Test
    void staleReReadsNeverTakeTheDueOnesPlacesAndEachMerchantTakesItsTurn() {
        Instant now = Instant.parse("2026-11-29T12:00:00Z");
        UUID busy = UUID.randomUUID();
        UUID quiet = UUID.randomUUID();
        for (int i = 0; i < 3; i++) {
            insert("stale-" + i, busy, true, now.plusSeconds(3600)); // just collected: read again, not due
        }
        insert("due-busy-1", busy, false, now.minusSeconds(60));
        insert("due-busy-2", busy, false, now.minusSeconds(50));
        insert("due-quiet", quiet, false, now.minusSeconds(10));
        insert("not-yet", quiet, false, now.plusSeconds(60));

        List<String> picked = subscriptions
                .toCheck(CHAIN, CONTRACT, now, 2)
                .map(KeptSubscription::subscriptionId)
                .collectList()
                .block();

        assertThat(picked)
                .as("two stale re-reads first, then two due ones: each merchant's first before anyone's second")
                .containsExactly("stale-0", "stale-1", "due-busy-1", "due-quiet");
    }

    private void insert(String id, UUID merchant, boolean stale, Instant nextCheck) {
        database.sql("""
                        INSERT INTO keeper_subscription (chain_id, subscription_id, contract, active, stale,
                            next_check_at, created_at, updated_at, scope, merchant_id)
                        VALUES (:chain, :id, :contract, TRUE, :stale, :next, :next, :next, 'kept', :merchant)""")
                .bind("chain", CHAIN)
                .bind("id", id)
                .bind("contract", CONTRACT)
                .bind("stale", stale)
                .bind("next", nextCheck.atOffset(ZoneOffset.UTC))
                .bind("merchant", merchant)
                .then()
                .block();
    }
}
