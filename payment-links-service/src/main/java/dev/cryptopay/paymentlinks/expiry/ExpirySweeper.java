package dev.cryptopay.paymentlinks.expiry;

import dev.cryptopay.paymentlinks.config.PaymentLinksProperties;
import dev.cryptopay.paymentlinks.paymentlink.PaymentLinkChanges;
import dev.cryptopay.paymentlinks.paymentlink.PaymentLinkRepository;
import dev.cryptopay.paymentlinks.refund.AbandonedRefunds;
import dev.cryptopay.service.background.BackgroundLoop;
import dev.cryptopay.service.events.Transition;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;
import org.springframework.transaction.reactive.TransactionalOperator;
import reactor.core.publisher.Mono;

/**
 * Moves pending links whose {@code expires_at} has passed to {@code expired}, with a {@code payment.failed} event,
 * in batches. Rows are claimed with {@code FOR UPDATE SKIP LOCKED}, so several instances sweep side by side without
 * touching the same link; a crash rolls the batch back and the next pass takes it again. Each pass then abandons the
 * refunds nothing paid in time ({@link AbandonedRefunds}).
 */
@Component
public class ExpirySweeper extends BackgroundLoop {

    private static final Logger log = LoggerFactory.getLogger(ExpirySweeper.class);
    static final int BATCH = 100;

    private final PaymentLinkRepository links;
    private final PaymentLinkChanges changes;
    private final AbandonedRefunds abandonedRefunds;
    private final TransactionalOperator tx;
    private final PaymentLinksProperties properties;
    private final Clock clock;

    public ExpirySweeper(
            PaymentLinkRepository links,
            PaymentLinkChanges changes,
            AbandonedRefunds abandonedRefunds,
            TransactionalOperator tx,
            PaymentLinksProperties properties,
            Clock clock) {
        this.links = links;
        this.changes = changes;
        this.abandonedRefunds = abandonedRefunds;
        this.tx = tx;
        this.properties = properties;
        this.clock = clock;
    }

    /** Expires everything due now; answers how many links expired. */
    public Mono<Integer> sweep() {
        return sweepBatch()
                .expand(count -> count == BATCH ? sweepBatch() : Mono.empty())
                .reduce(0, Integer::sum);
    }

    private Mono<Integer> sweepBatch() {
        Instant now = clock.instant();
        // Read the whole batch before writing: one connection cannot run a query while it streams another's rows.
        Mono<Integer> batch = links.lockExpiredPending(now, BATCH)
                .collectList()
                .flatMapIterable(locked -> locked)
                .map(link -> link.expire(now))
                .filter(Transition::changed)
                .concatMap(expired -> changes.save(expired, null, now))
                .count()
                .map(Long::intValue);
        return tx.transactional(batch);
    }

    /** One pass: expire what is due, then abandon the refunds due. */
    @Override
    protected Mono<Duration> runOnce() {
        return sweep().doOnNext(count -> {
                    if (count > 0) {
                        log.info("Expired {} payment links", count);
                    }
                })
                .then(abandonedRefunds.abandon())
                .doOnNext(count -> {
                    if (count > 0) {
                        log.info("Abandoned {} refunds nothing paid in time", count);
                    }
                })
                .thenReturn(properties.expirySweepInterval());
    }

    @Override
    protected Duration delayAfterFailure() {
        return properties.expirySweepInterval();
    }

    @Override
    protected boolean enabled() {
        return properties.expirySweepEnabled();
    }
}
