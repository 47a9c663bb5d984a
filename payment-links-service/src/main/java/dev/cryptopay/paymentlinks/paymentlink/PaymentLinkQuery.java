package dev.cryptopay.paymentlinks.paymentlink;

import dev.cryptopay.auth.internal.MerchantIdentity;
import dev.cryptopay.service.request.ListQuery;
import dev.cryptopay.service.request.PageRequest;
import dev.cryptopay.service.request.Where;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.springframework.util.MultiValueMap;

/**
 * The validated query of {@code GET /payment_links}: paging, filters and sort. Invalid values are a 400 naming each
 * bad parameter; unknown parameters are ignored.
 */
public record PaymentLinkQuery(
        PageRequest page,
        PaymentStatus status,
        Boolean active,
        String currency,
        BigDecimal minAmount,
        BigDecimal maxAmount,
        Instant createdFrom,
        Instant createdTo,
        String search,
        String sortBy,
        String sortOrder) {

    static final int DEFAULT_LIMIT = 20;
    static final int MAX_LIMIT = 100;
    static final List<String> SORT_FIELDS = List.of("created_at", "updated_at", "amount", "name");
    static final Map<String, String> SORT_COLUMNS = Map.of(
            "created_at", "created_at", "updated_at", "updated_at", "amount", "amount", "name", "lower(payment_name)");
    static final List<String> STATUSES =
            Arrays.stream(PaymentStatus.values()).map(PaymentStatus::wireName).toList();

    public static PaymentLinkQuery parse(MultiValueMap<String, String> params) {
        ListQuery query = new ListQuery(params);
        PageRequest page = query.page("limit", DEFAULT_LIMIT, MAX_LIMIT);
        String status = query.oneOf("status", STATUSES, null);
        Boolean active = query.bool("is_active");
        String currency = query.text("currency", 3, 10);
        BigDecimal minAmount = query.positiveDecimal("min_amount");
        BigDecimal maxAmount = query.positiveDecimal("max_amount");
        if (minAmount != null && maxAmount != null && minAmount.compareTo(maxAmount) > 0) {
            query.violations().reject("min_amount", "min_amount must not be greater than max_amount");
        }
        Instant createdFrom = query.from("created_from");
        Instant createdTo = query.to("created_to");
        String search = query.search("search", 100);
        String sortBy = query.oneOf("sort_by", SORT_FIELDS, "created_at");
        String sortOrder = query.sortOrder();
        query.throwIfAny();
        return new PaymentLinkQuery(
                page,
                status == null ? null : PaymentStatus.fromWireName(status),
                active,
                currency == null ? null : currency.toUpperCase(Locale.ROOT),
                minAmount,
                maxAmount,
                createdFrom,
                createdTo,
                search,
                sortBy,
                sortOrder);
    }

    /** The WHERE clause for this merchant and these filters; expiry is judged at {@code now}. */
    Where where(MerchantIdentity merchant, Instant now) {
        Where where = Where.merchant(merchant, "");
        if (status == PaymentStatus.EXPIRED) {
            where.and(
                    "(payment_status = 'expired' OR (payment_status = 'pending' AND expires_at <= :now))",
                    Map.of("now", now));
        } else if (status == PaymentStatus.PENDING) {
            where.and("(payment_status = 'pending' AND expires_at > :now)", Map.of("now", now));
        } else if (status != null) {
            where.equal("payment_status", "status", status.wireName());
        }
        return where.equal("is_active", "active", active)
                .equal("currency", "currency", currency)
                .atLeast("amount", "minAmount", minAmount)
                .atMost("amount", "maxAmount", maxAmount)
                .between("created_at", createdFrom, createdTo)
                .search(search, "payment_name", "description");
    }

    /** ORDER BY with the id as tie-breaker, so pages never repeat or skip rows with equal sort values. */
    String orderBy() {
        String direction = sortOrder.equals("asc") ? "ASC" : "DESC";
        return SORT_COLUMNS.get(sortBy) + " " + direction + ", id " + direction;
    }
}
