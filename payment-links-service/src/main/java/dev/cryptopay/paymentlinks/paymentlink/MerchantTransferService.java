package dev.cryptopay.paymentlinks.paymentlink;

import dev.cryptopay.auth.internal.MerchantIdentity;
import dev.cryptopay.service.request.Where;
import java.time.Instant;
import java.util.List;
import org.springframework.stereotype.Service;
import reactor.core.publisher.Mono;

/** The merchant-wide view of the transfers its links received: the list, and what they add up to per currency. */
@Service
class MerchantTransferService {

    private final MerchantTransferRepository transfers;

    MerchantTransferService(MerchantTransferRepository transfers) {
        this.transfers = transfers;
    }

    /** One page of the merchant's transfers and how many match in all. */
    record Listed(List<MerchantTransfer> transfers, long total) {}

    Mono<Listed> list(MerchantIdentity merchant, MerchantTransferQuery query) {
        Where where = query.where(merchant);
        return transfers
                .count(where)
                .zipWith(transfers
                        .page(where, query.page().size(), query.page().offset())
                        .collectList())
                .map(result -> new Listed(result.getT2(), result.getT1()));
    }

    /** What the merchant's links received from transfers recorded in the range (either end may be null). */
    Mono<ReceivedTotals> totals(MerchantIdentity merchant, Instant createdFrom, Instant createdTo) {
        Where where = Where.merchant(merchant, "l.").between("t.created_at", createdFrom, createdTo);
        return transfers.totals(where).collectList().map(ReceivedTotals::of);
    }
}
