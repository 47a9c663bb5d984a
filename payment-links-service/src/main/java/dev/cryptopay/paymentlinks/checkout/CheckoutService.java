package dev.cryptopay.paymentlinks.checkout;

import dev.cryptopay.checkoutui.Explorers;
import dev.cryptopay.paymentlinks.config.PaymentLinksProperties;
import dev.cryptopay.paymentlinks.paymentlink.PaymentLinkRepository;
import dev.cryptopay.paymentlinks.transaction.TransactionRepository;
import dev.cryptopay.service.db.Uncancellable;
import java.time.Clock;
import java.time.Duration;
import java.util.UUID;
import org.springframework.stereotype.Service;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Reads what a customer's checkout shows. Everything comes from the database on each read (two queries), so any
 * service instance answers any customer and a stream sees changes made through any other instance.
 */
@Service
public class CheckoutService {

    private final PaymentLinkRepository links;
    private final TransactionRepository transactions;
    private final Clock clock;
    private final Duration pollInterval;
    private final Explorers explorers;
    private final PaymentLinksProperties properties;

    public CheckoutService(
            PaymentLinkRepository links,
            TransactionRepository transactions,
            Clock clock,
            PaymentLinksProperties properties) {
        this.links = links;
        this.transactions = transactions;
        this.clock = clock;
        this.pollInterval = properties.checkout().pollInterval();
        this.explorers = Explorers.of(properties.checkout().explorers());
        this.properties = properties;
    }

    /** The link's {@code payment_url} (its checkout's address) when the link exists; one query. */
    public Mono<String> paymentUrl(UUID paymentId) {
        return links.findById(paymentId).map(link -> properties.paymentUrl(link.id()));
    }

    /**
     * The checkout of one link now; empty when there is no such link. A paid link's view carries its confirmed
     * transactions (a third query, only then) with their explorer links.
     */
    public Mono<CheckoutView> view(UUID paymentId) {
        return links.findById(paymentId)
                .flatMap(link -> transactions
                        .progress(link.id())
                        .map(progress -> CheckoutView.of(link, progress, clock.instant())))
                .flatMap(view -> view.paid() ? withReceipts(view) : Mono.just(view));
    }

    private Mono<CheckoutView> withReceipts(CheckoutView view) {
        long chainId = view.payment() == null ? 0 : view.payment().chainId();
        return transactions
                .confirmed(view.paymentId())
                .map(tx -> new PaymentReceipt(
                        tx.txHash(),
                        tx.cryptoAmount(),
                        explorers.transaction(chainId, tx.txHash()).orElse(null)))
                .collectList()
                .map(view::withReceipts);
    }

    /**
     * {@code first} and then each view that shows a visible change (a different {@link CheckoutStatus}), read every
     * poll interval; completes after a terminal state. A read still running when the next tick comes lets that tick
     * pass, so a slow database never queues reads up.
     */
    public Flux<CheckoutView> watch(CheckoutView first) {
        return Flux.interval(pollInterval)
                .onBackpressureDrop()
                // The stream ends (client gone, terminal state, lifetime) whenever it likes; a read under way finishes.
                .concatMap(tick -> Uncancellable.read(view(first.paymentId())), 1)
                .startWith(first)
                .distinctUntilChanged(CheckoutStatus::of)
                .takeUntil(view -> view.state().terminal());
    }
}
