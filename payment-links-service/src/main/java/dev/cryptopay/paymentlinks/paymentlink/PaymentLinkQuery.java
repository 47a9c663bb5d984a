package dev.cryptopay.paymentlinks.paymentlink;

import dev.cryptopay.auth.internal.MerchantIdentity;
import dev.cryptopay.service.error.ApiException;
import dev.cryptopay.service.error.FieldError;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
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
        int page,
        int limit,
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
    static final Map<String, String> SORT_COLUMNS = Map.of(
            "created_at", "created_at",
            "updated_at", "updated_at",
            "amount", "amount",
            "name", "lower(payment_name)");

    public static PaymentLinkQuery parse(MultiValueMap<String, String> params) {
        List<FieldError> errors = new ArrayList<>();
        int page = integer(params, "page", 1, 1, Integer.MAX_VALUE, errors);
        int limit = integer(params, "limit", DEFAULT_LIMIT, 1, MAX_LIMIT, errors);

        PaymentStatus status = null;
        String statusText = params.getFirst("status");
        if (statusText != null) {
            status = PaymentStatus.fromWireName(statusText);
            if (status == null) {
                errors.add(new FieldError(
                        "status", "status must be one of pending, processing, completed, expired, cancelled"));
            }
        }
        Boolean active = null;
        String activeText = params.getFirst("is_active");
        if (activeText != null) {
            if (activeText.equals("true") || activeText.equals("false")) {
                active = Boolean.valueOf(activeText);
            } else {
                errors.add(new FieldError("is_active", "is_active must be true or false"));
            }
        }
        String currency = params.getFirst("currency");
        if (currency != null) {
            if (currency.length() < 3 || currency.length() > 10) {
                errors.add(new FieldError("currency", "currency must be 3-10 characters"));
            }
            currency = currency.toUpperCase(Locale.ROOT);
        }
        BigDecimal minAmount = amount(params, "min_amount", errors);
        BigDecimal maxAmount = amount(params, "max_amount", errors);
        if (minAmount != null && maxAmount != null && minAmount.compareTo(maxAmount) > 0) {
            errors.add(new FieldError("min_amount", "min_amount must not be greater than max_amount"));
        }
        Instant createdFrom = time(params, "created_from", false, errors);
        Instant createdTo = time(params, "created_to", true, errors);
        String search = params.getFirst("search");
        if (search != null) {
            search = search.trim();
            if (search.codePointCount(0, search.length()) > 100) {
                errors.add(new FieldError("search", "search must be at most 100 characters"));
            }
            if (search.isEmpty()) {
                search = null;
            }
        }
        String sortBy = params.getFirst("sort_by") == null ? "created_at" : params.getFirst("sort_by");
        if (!SORT_COLUMNS.containsKey(sortBy)) {
            errors.add(new FieldError("sort_by", "sort_by must be one of created_at, updated_at, amount, name"));
        }
        String sortOrder = params.getFirst("sort_order") == null
                ? "desc"
                : params.getFirst("sort_order").toLowerCase(Locale.ROOT);
        if (!sortOrder.equals("asc") && !sortOrder.equals("desc")) {
            errors.add(new FieldError("sort_order", "sort_order must be asc or desc"));
        }
        if (!errors.isEmpty()) {
            throw ApiException.validation(errors);
        }
        return new PaymentLinkQuery(
                page,
                limit,
                status,
                active,
                currency,
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

    long offset() {
        return (long) (page - 1) * limit;
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

    private static int integer(
            MultiValueMap<String, String> params,
            String name,
            int fallback,
            int min,
            int max,
            List<FieldError> errors) {
        String text = params.getFirst(name);
        if (text == null) {
            return fallback;
        }
        try {
            int value = Integer.parseInt(text.trim());
            if (value < min || value > max) {
                errors.add(new FieldError(
                        name,
                        max == Integer.MAX_VALUE
                                ? name + " must be at least " + min
                                : name + " must be between " + min + " and " + max));
                return fallback;
            }
            return value;
        } catch (NumberFormatException e) {
            errors.add(new FieldError(name, name + " must be an integer"));
            return fallback;
        }
    }

    private static BigDecimal amount(MultiValueMap<String, String> params, String name, List<FieldError> errors) {
        String text = params.getFirst(name);
        if (text == null) {
            return null;
        }
        try {
            BigDecimal value = new BigDecimal(text.trim());
            if (value.signum() <= 0) {
                errors.add(new FieldError(name, name + " must be greater than 0"));
                return null;
            }
            return value;
        } catch (NumberFormatException e) {
            errors.add(new FieldError(name, name + " must be a number"));
            return null;
        }
    }

    /** A full ISO 8601 timestamp, or a date: created_from=2026-01-01 starts that day, created_to ends it (UTC). */
    private static Instant time(
            MultiValueMap<String, String> params, String name, boolean endOfDay, List<FieldError> errors) {
        String text = params.getFirst(name);
        if (text == null) {
            return null;
        }
        try {
            return OffsetDateTime.parse(text.trim()).toInstant();
        } catch (DateTimeParseException notATimestamp) {
            try {
                LocalDate date = LocalDate.parse(text.trim());
                return endOfDay
                        ? date.plusDays(1)
                                .atStartOfDay()
                                .toInstant(ZoneOffset.UTC)
                                .minusNanos(1000)
                        : date.atStartOfDay().toInstant(ZoneOffset.UTC);
            } catch (DateTimeParseException notADate) {
                errors.add(new FieldError(name, name + " must be an ISO 8601 timestamp or date"));
                return null;
            }
        }
    }
}
