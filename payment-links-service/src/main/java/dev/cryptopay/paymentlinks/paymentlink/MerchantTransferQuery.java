package dev.cryptopay.paymentlinks.paymentlink;

import dev.cryptopay.auth.internal.MerchantIdentity;
import dev.cryptopay.service.request.ListQuery;
import dev.cryptopay.service.request.PageRequest;
import dev.cryptopay.service.request.Where;
import java.time.Instant;
import java.util.List;
import org.springframework.util.MultiValueMap;

/**
 * The validated query of {@code GET /payment_links/transactions}: paging as {@code GET /payment_links} pages, and the
 * filters {@code status}, {@code late}, {@code counted} and the creation range. Invalid values are a 400 naming each
 * bad parameter; unknown parameters are ignored.
 */
record MerchantTransferQuery(
        PageRequest page, String status, Boolean late, Boolean counted, Instant createdFrom, Instant createdTo) {

    static final List<String> STATUSES = List.of("pending", "confirmed", "failed", "refunded");

    static MerchantTransferQuery parse(MultiValueMap<String, String> params) {
        ListQuery query = new ListQuery(params);
        PageRequest page = query.page("limit", PaymentLinkQuery.DEFAULT_LIMIT, PaymentLinkQuery.MAX_LIMIT);
        String status = query.oneOf("status", STATUSES, null);
        Boolean late = query.bool("late");
        Boolean counted = query.bool("counted");
        ListQuery.DateRange created = query.dateRange("created_from", "created_to");
        query.throwIfAny();
        return new MerchantTransferQuery(page, status, late, counted, created.from(), created.to());
    }

    /** The WHERE clause over {@code link_transaction t JOIN payment_link l}: this merchant and mode, these filters. */
    Where where(MerchantIdentity merchant) {
        return Where.merchant(merchant, "l.")
                .equal("t.status", "status", status)
                .equal("t.late", "late", late)
                .equal("t.counted_as_use", "counted", counted)
                .between("t.created_at", createdFrom, createdTo);
    }
}
