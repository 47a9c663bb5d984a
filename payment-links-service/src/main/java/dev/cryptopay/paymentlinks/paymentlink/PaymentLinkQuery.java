package dev.cryptopay.paymentlinks.paymentlink;

import dev.cryptopay.auth.internal.MerchantIdentity;
import dev.cryptopay.service.request.ListQuery;
import dev.cryptopay.service.request.PageRequest;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.springframework.r2dbc.core.DatabaseClient.GenericExecuteSpec;
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
    Sql where(MerchantIdentity merchant, Instant now) {
        List<String> conditions = new ArrayList<>(List.of("merchant_id = :merchant", "mode = :mode"));
        Map<String, Object> values = new LinkedHashMap<>();
        values.put("merchant", merchant.merchantId());
        values.put("mode", merchant.mode().wireName());
        if (status != null) {
            switch (status) {
                case EXPIRED ->
                    conditions.add(
                            "(payment_status = 'expired' OR (payment_status = 'pending' AND expires_at <= :now))");
                case PENDING -> conditions.add("(payment_status = 'pending' AND expires_at > :now)");
                default -> {
                    conditions.add("payment_status = :status");
                    values.put("status", status.wireName());
                }
            }
            if (status == PaymentStatus.EXPIRED || status == PaymentStatus.PENDING) {
                values.put("now", now.atOffset(ZoneOffset.UTC));
            }
        }
        if (active != null) {
            conditions.add("is_active = :active");
            values.put("active", active);
        }
        if (currency != null) {
            conditions.add("currency = :currency");
            values.put("currency", currency);
        }
        if (minAmount != null) {
            conditions.add("amount >= :minAmount");
            values.put("minAmount", minAmount);
        }
        if (maxAmount != null) {
            conditions.add("amount <= :maxAmount");
            values.put("maxAmount", maxAmount);
        }
        if (createdFrom != null) {
            conditions.add("created_at >= :createdFrom");
            values.put("createdFrom", createdFrom.atOffset(ZoneOffset.UTC));
        }
        if (createdTo != null) {
            conditions.add("created_at <= :createdTo");
            values.put("createdTo", createdTo.atOffset(ZoneOffset.UTC));
        }
        if (search != null) {
            conditions.add("(payment_name ILIKE :search ESCAPE '\\' OR description ILIKE :search ESCAPE '\\')");
            values.put(
                    "search",
                    "%" + search.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%");
        }
        return new Sql(String.join(" AND ", conditions), values);
    }

    /** ORDER BY with the id as tie-breaker, so pages never repeat or skip rows with equal sort values. */
    String orderBy() {
        String direction = sortOrder.equals("asc") ? "ASC" : "DESC";
        return SORT_COLUMNS.get(sortBy) + " " + direction + ", id " + direction;
    }

    /** A WHERE clause and the values of its named parameters. */
    record Sql(String clause, Map<String, Object> values) {

        GenericExecuteSpec bindAll(GenericExecuteSpec spec) {
            GenericExecuteSpec bound = spec;
            for (Map.Entry<String, Object> value : values.entrySet()) {
                bound = bound.bind(value.getKey(), value.getValue());
            }
            return bound;
        }
    }
}
