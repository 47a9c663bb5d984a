package dev.cryptopay.paymentlinks.refund;

import dev.cryptopay.paymentlinks.paymentlink.PaymentLinkRepository;
import dev.cryptopay.paymentlinks.paymentlink.RefundFailure;
import dev.cryptopay.paymentlinks.paymentlink.RefundRepository;
import dev.cryptopay.service.events.EventType;
import java.time.Clock;
import java.time.Instant;
import org.springframework.stereotype.Component;
import org.springframework.transaction.reactive.TransactionalOperator;
import reactor.core.publisher.Mono;

/**
 * Fails refunds nothing paid in time: an {@code initiated} refund past its {@code expires_at} becomes {@code failed}
 * with reason {@code abandoned} and a {@code transfer.failed} event, and its amount can be refunded again. Run by the
 * expiry sweeper's loop; rows are claimed with {@code FOR UPDATE SKIP LOCKED}, so instances sweep side by side. A
 * transfer that pays it later is a withdrawal.
 */
@Component
public class AbandonedRefunds {

    static final int BATCH = 100;

    private final RefundRepository refunds;
    private final PaymentLinkRepository links;
    private final TransferEvents events;
    private final TransactionalOperator tx;
    private final Clock clock;

    AbandonedRefunds(
            RefundRepository refunds,
            PaymentLinkRepository links,
            TransferEvents events,
            TransactionalOperator tx,
            Clock clock) {
        this.refunds = refunds;
        this.links = links;
        this.events = events;
        this.tx = tx;
        this.clock = clock;
    }

    /** Abandons every refund due now; answers how many. */
    public Mono<Integer> abandon() {
        return Mono.defer(this::batch)
                .expand(count -> count == BATCH ? batch() : Mono.empty())
                .reduce(0, Integer::sum);
    }

    private Mono<Integer> batch() {
        Instant now = clock.instant();
        // Read the whole batch before writing: one connection cannot run a query while it streams another's rows.
        Mono<Integer> batch = refunds.lockAbandoned(now, BATCH)
                .collectList()
                .flatMapIterable(locked -> locked)
                .concatMap(refund -> links.findById(refund.paymentLinkId()).flatMap(link -> {
                    var abandoned = refund.failed(RefundFailure.ABANDONED, now);
                    return refunds.update(abandoned)
                            .then(events.append(EventType.TRANSFER_FAILED, link, abandoned, null, now))
                            .thenReturn(abandoned);
                }))
                .count()
                .map(Long::intValue);
        return tx.transactional(batch);
    }
}
