package dev.cryptopay.paymentlinks.paymentlink;

import dev.cryptopay.auth.Mode;
import dev.cryptopay.paymentlinks.config.PaymentLinksProperties;
import dev.cryptopay.service.json.JsonFields;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.stereotype.Component;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Renders a link as the interface describes it: optional fields that were not provided are omitted, amounts are
 * exact JSON numbers, timestamps ISO 8601 UTC, and {@code payment_status} is the status as of now.
 */
@Component
public class PaymentLinkJson {

    static final String SOURCE = "payment_link_api";
    private static final DateTimeFormatter TIMESTAMP = DateTimeFormatter.ISO_INSTANT.withZone(ZoneOffset.UTC);

    private final PaymentLinksProperties properties;
    private final JsonMapper json;

    public PaymentLinkJson(PaymentLinksProperties properties, JsonMapper json) {
        this.properties = properties;
        this.json = json;
    }

    public Map<String, Object> render(PaymentLink link, Instant now, Summary summary) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("id", link.id().toString());
        out.put("payment_name", link.paymentName());
        putIfPresent(out, "description", link.description());
        out.put("amount", exact(link.amount()));
        out.put("currency", link.currency());
        out.put("payment_url", properties.paymentUrl(link.id()));
        out.put("payment_status", link.effectiveStatus(now).wireName());
        out.put("payment_type", link.paymentType());
        out.put("source", SOURCE);
        out.put("is_test", link.mode() == Mode.TEST);
        out.put("expires_at", timestamp(link.expiresAt()));
        out.put("max_uses", link.maxUses());
        out.put("current_uses", link.currentUses());
        out.put("is_active", link.active());
        out.put("is_expired", link.isExpired(now));
        out.put("customer_id", link.customerId());
        putIfPresent(out, "customer_name", link.customerName());
        putIfPresent(out, "customer_email", link.customerEmail());
        putIfPresent(out, "product_name", link.productName());
        putIfPresent(out, "product_description", link.productDescription());
        if (link.cart() != null) {
            out.put("cart", tree(link.cart()));
        }
        out.put("order_id", link.orderId());
        out.put("auto_fill", link.autoFill());
        putIfPresent(out, "success_url", link.successUrl());
        putIfPresent(out, "cancel_url", link.cancelUrl());
        if (link.webhookMetadata() != null) {
            out.put("webhook_metadata", tree(link.webhookMetadata()));
        }
        putIfPresent(out, "checkout_mode", link.checkoutMode());
        putIfPresent(out, "origin", link.origin());
        if (summary != null) {
            Map<String, Object> figures = new LinkedHashMap<>();
            figures.put("total_payers", summary.totalPayers());
            figures.put("total_transactions", summary.totalTransactions());
            figures.put("total_amount_received", exact(summary.totalAmountReceived()));
            figures.put("total_amount_received_crypto", exact(summary.totalAmountReceivedCrypto()));
            figures.put("pending_transactions", summary.pendingTransactions());
            figures.put("completed_transactions", summary.completedTransactions());
            figures.put("failed_transactions", summary.failedTransactions());
            out.put("summary", figures);
        }
        out.put("created_at", timestamp(link.createdAt()));
        return out;
    }

    JsonNode tree(String text) {
        return json.readTree(text);
    }

    static String timestamp(Instant instant) {
        return TIMESTAMP.format(instant);
    }

    /** Drops the trailing zeros NUMERIC(38,18) adds, so 10.5 is rendered as 10.5, not 10.500000000000000000. */
    static BigDecimal exact(BigDecimal value) {
        return JsonFields.normalize(value);
    }

    private static void putIfPresent(Map<String, Object> out, String name, Object value) {
        if (value != null) {
            out.put(name, value);
        }
    }
}
