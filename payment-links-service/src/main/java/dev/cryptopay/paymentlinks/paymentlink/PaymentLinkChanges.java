package dev.cryptopay.paymentlinks.paymentlink;

import dev.cryptopay.auth.internal.MerchantIdentity;
import dev.cryptopay.paymentlinks.deposit.DepositSettings;
import dev.cryptopay.paymentlinks.deposit.DepositSettingsRepository;
import dev.cryptopay.service.events.EventType;
import dev.cryptopay.service.events.Transition;
import java.math.BigDecimal;
import java.time.Instant;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;

/**
 * The one way a link's move is stored, whoever caused it (a merchant, the expiry sweeper, a chain watcher's report):
 * the row when the move changed it, then the events the move emitted, in the caller's transaction (which locked the
 * row).
 */
@Component
public class PaymentLinkChanges {

    private final PaymentLinkRepository links;
    private final PaymentLinkEvents events;
    private final DepositSettingsRepository depositSettings;

    public PaymentLinkChanges(
            PaymentLinkRepository links, PaymentLinkEvents events, DepositSettingsRepository depositSettings) {
        this.links = links;
        this.events = events;
        this.depositSettings = depositSettings;
    }

    /**
     * The transfer a move's events are about.
     *
     * @param logIndex        its log's index in the block (-1 for the native coin)
     * @param tokenContract   the token that arrived (lower case); null for the native coin
     * @param asset           what arrived, named for the merchant (a currency code, else the contract)
     * @param late            the transfer arrived after the link stopped taking payments (the events say so)
     * @param unexpectedAsset it is not the link's token, so it counts for nothing ({@code wallet.deposit}'s reason)
     * @param amount          the transfer's own amount, in its token
     * @param usdValue        its value in USD as priced when confirmed; null when unknown
     * @param confirmations   its confirmations as last reported
     */
    public record Payment(
            String transactionHash,
            int logIndex,
            String tokenContract,
            String asset,
            boolean late,
            boolean unexpectedAsset,
            BigDecimal amount,
            BigDecimal usdValue,
            int confirmations) {}

    /**
     * Inserts a new link ({@link PaymentLink#create}) with its events, in one statement (atomic without a transaction);
     * answers the link.
     */
    public Mono<PaymentLink> create(Transition<PaymentLink> created, Instant now) {
        return links.insert(created.state(), events.topic(), events.of(created, null, null, BigDecimal.ZERO, now))
                .thenReturn(created.state());
    }

    /**
     * Stores a move of an existing link (when it changed the row) and appends its events; answers the link as it now
     * is. The events say what the link has received by then, so the caller stores the transaction that caused the
     * move first.
     *
     * @param payment the transaction that caused the move; null when none did
     */
    public Mono<PaymentLink> save(Transition<PaymentLink> move, Payment payment, Instant now) {
        return save(move, payment, null, now);
    }

    /**
     * As {@link #save(Transition, Payment, Instant)}, for the move of a completed refund ({@link PaymentLink#refunded}):
     * its {@code payment.refunded} names the refund, and {@code payment} is the transfer refunded (null for a refund
     * of the link's money). The caller stores what the refund returned first, so {@code amount_received} excludes it.
     */
    public Mono<PaymentLink> save(Transition<PaymentLink> move, Payment payment, LinkRefund refund, Instant now) {
        Mono<Void> store = move.changed() ? links.updateState(move.state()) : Mono.empty();
        Mono<Void> announce = worthAnnouncing(move, payment)
                .filter(Transition::emits)
                .flatMap(announced -> links.amountReceived(announced.state().id())
                        .flatMap(received -> events.append(announced, payment, refund, received, now)));
        return store.then(announce).thenReturn(move.state());
    }

    /**
     * The move without its {@code wallet.deposit} when the deposit is worth less than the merchant's minimum
     * ({@link DepositSettings}): the transfer stays recorded on the link, only the webhook is not sent.
     */
    private Mono<Transition<PaymentLink>> worthAnnouncing(Transition<PaymentLink> move, Payment payment) {
        if (!move.emits(EventType.WALLET_DEPOSIT) || payment == null || payment.usdValue() == null) {
            return Mono.just(move);
        }
        PaymentLink link = move.state();
        return depositSettings
                .of(new MerchantIdentity(link.merchantId(), link.mode()))
                .map(settings -> settings.announces(payment.usdValue())
                        ? move
                        : new Transition<>(
                                link,
                                move.events().stream()
                                        .filter(type -> type != EventType.WALLET_DEPOSIT)
                                        .toList(),
                                move.changed()));
    }
}
