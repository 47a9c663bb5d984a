package dev.cryptopay.paymentlinks.paymentlink;

import dev.cryptopay.service.error.ApiException;
import dev.cryptopay.service.error.FieldError;
import dev.cryptopay.service.json.JsonFields;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import org.springframework.stereotype.Component;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Validates a create request field by field. The currency messages are the interface's own
 * ({@code Currency is required}, {@code Currency code must be uppercase}, {@code Invalid currency code}); every
 * other rule names its field. All problems are reported together; the response message is the first one.
 */
@Component
public class PaymentLinkRequestParser {

    static final List<String> FIELDS = List.of(
            "payment_name",
            "amount",
            "currency",
            "description",
            "expires_at",
            "max_uses",
            "customer_id",
            "customer_name",
            "customer_email",
            "product_name",
            "product_description",
            "cart",
            "order_id",
            "auto_fill",
            "success_url",
            "cancel_url",
            "webhook_metadata",
            "checkout_mode",
            "origin");
    static final List<String> CHECKOUT_MODES = List.of("hosted", "embedded");
    static final int MAX_METADATA_BYTES = 16 * 1024;

    private final JsonMapper json;

    public PaymentLinkRequestParser(JsonMapper json) {
        this.json = json;
    }

    /** Parses the raw body; {@code supportedCurrencies} are the codes links may be created in. */
    public NewPaymentLink parse(String body, Set<String> supportedCurrencies, Instant now) {
        JsonNode root = JsonFields.parseObject(json, body);
        JsonFields fields = new JsonFields();
        fields.rejectUnknown(root, "", FIELDS);

        String paymentName = fields.string(root, "payment_name", "payment_name", true, 1, 100);
        BigDecimal amount = fields.money(root, "amount", "amount", true, false);
        String currency = currency(root, fields, supportedCurrencies);
        String description = fields.string(root, "description", "description", false, 0, 1000);
        Instant expiresAt = fields.timestamp(root, "expires_at", "expires_at");
        if (expiresAt != null && !expiresAt.isAfter(now)) {
            fields.reject("expires_at", "expires_at must be in the future");
        }
        Integer maxUses = fields.integer(root, "max_uses", "max_uses", false, 1, Integer.MAX_VALUE);
        String customerId = fields.string(root, "customer_id", "customer_id", false, 1, 100);
        String customerName = fields.string(root, "customer_name", "customer_name", false, 1, 100);
        String customerEmail = fields.email(root, "customer_email", "customer_email");
        String productName = fields.string(root, "product_name", "product_name", false, 1, 200);
        String productDescription = fields.string(root, "product_description", "product_description", false, 0, 1000);
        String orderId = fields.string(root, "order_id", "order_id", false, 1, 100);
        Boolean autoFill = fields.bool(root, "auto_fill", "auto_fill");
        String successUrl = fields.url(root, "success_url", "success_url", 500);
        String cancelUrl = fields.url(root, "cancel_url", "cancel_url", 500);
        String metadata = metadata(root, fields);
        String checkoutMode = fields.string(root, "checkout_mode", "checkout_mode", false, 1, 20);
        if (checkoutMode != null && !CHECKOUT_MODES.contains(checkoutMode)) {
            fields.reject("checkout_mode", "checkout_mode must be one of " + String.join(", ", CHECKOUT_MODES));
        }
        String origin = fields.url(root, "origin", "origin", 500);
        JsonNode cartNode = fields.object(root, "cart", "cart");
        String cart = cartNode == null ? null : cart(cartNode, amount, fields);

        if (!fields.errors().isEmpty()) {
            throw validation(fields.errors());
        }
        return new NewPaymentLink(
                paymentName,
                description,
                amount,
                currency,
                expiresAt,
                maxUses,
                customerId,
                customerName,
                customerEmail,
                productName,
                productDescription,
                cart,
                orderId,
                autoFill,
                successUrl,
                cancelUrl,
                metadata,
                checkoutMode,
                origin);
    }

    private static String currency(JsonNode root, JsonFields fields, Set<String> supported) {
        JsonNode value = root.get("currency");
        if (value == null
                || value.isNull()
                || (value.isString() && value.asString().isBlank())) {
            fields.reject("currency", "Currency is required");
            return null;
        }
        if (!value.isString()) {
            fields.reject("currency", "Currency must be a string");
            return null;
        }
        String code = value.asString();
        if (!code.equals(code.toUpperCase(java.util.Locale.ROOT))) {
            fields.reject("currency", "Currency code must be uppercase");
            return null;
        }
        if (code.length() < 3 || code.length() > 10 || !supported.contains(code)) {
            fields.reject("currency", "Invalid currency code");
            return null;
        }
        return code;
    }

    private String metadata(JsonNode root, JsonFields fields) {
        JsonNode node = fields.object(root, "webhook_metadata", "webhook_metadata");
        if (node == null) {
            return null;
        }
        String text = json.writeValueAsString(node);
        if (text.getBytes(java.nio.charset.StandardCharsets.UTF_8).length > MAX_METADATA_BYTES) {
            fields.reject("webhook_metadata", "webhook_metadata must be at most 16 KB of JSON");
            return null;
        }
        return text;
    }

    /**
     * Checks the cart's arithmetic exactly (decimal, not floating point) and returns it normalised with shipping
     * defaulted to 0. Decision: a cart whose total differs from the link amount is refused, because the customer
     * would otherwise see one price and be charged another.
     */
    private String cart(JsonNode cart, BigDecimal amount, JsonFields fields) {
        int errorsBefore = fields.errors().size();
        fields.rejectUnknown(cart, "cart", List.of("items", "subtotal", "shipping", "tax", "total"));
        ArrayNode items = json.createArrayNode();
        BigDecimal itemsSum = BigDecimal.ZERO;
        JsonNode itemsNode = cart.get("items");
        if (itemsNode == null || itemsNode.isNull()) {
            fields.reject("cart.items", "cart.items is required");
        } else if (!itemsNode.isArray() || itemsNode.isEmpty()) {
            fields.reject("cart.items", "cart.items must be an array with at least one item");
        } else {
            for (int i = 0; i < itemsNode.size(); i++) {
                String path = "cart.items[" + i + "]";
                JsonNode item = itemsNode.get(i);
                if (!item.isObject()) {
                    fields.reject(path, path + " must be an object");
                    continue;
                }
                fields.rejectUnknown(item, path, List.of("name", "product_id", "quantity", "unit_price", "total"));
                String name = fields.string(item, "name", path + ".name", true, 1, 200);
                String productId = fields.string(item, "product_id", path + ".product_id", false, 1, 100);
                Integer quantity = fields.integer(item, "quantity", path + ".quantity", true, 1, Integer.MAX_VALUE);
                BigDecimal unitPrice = fields.money(item, "unit_price", path + ".unit_price", true, true);
                BigDecimal total = fields.money(item, "total", path + ".total", true, true);
                if (quantity != null && unitPrice != null && total != null) {
                    if (unitPrice.multiply(BigDecimal.valueOf(quantity)).compareTo(total) != 0) {
                        fields.reject(path + ".total", path + ".total must equal quantity × unit_price");
                    }
                    itemsSum = itemsSum.add(total);
                }
                ObjectNode normalized = items.addObject();
                normalized.put("name", name);
                if (productId != null) {
                    normalized.put("product_id", productId);
                }
                normalized.put("quantity", quantity == null ? 0 : quantity);
                normalized.put("unit_price", unitPrice);
                normalized.put("total", total);
            }
        }
        BigDecimal subtotal = fields.money(cart, "subtotal", "cart.subtotal", true, true);
        BigDecimal shipping = fields.money(cart, "shipping", "cart.shipping", false, true);
        BigDecimal tax = fields.money(cart, "tax", "cart.tax", true, true);
        BigDecimal total = fields.money(cart, "total", "cart.total", true, true);
        if (shipping == null) {
            shipping = BigDecimal.ZERO;
        }
        if (fields.errors().size() > errorsBefore) {
            return null;
        }
        if (subtotal.compareTo(itemsSum) != 0) {
            fields.reject("cart.subtotal", "cart.subtotal must equal the sum of the item totals");
        }
        if (total.compareTo(subtotal.add(shipping).add(tax)) != 0) {
            fields.reject("cart.total", "cart.total must equal subtotal + shipping + tax");
        } else if (amount != null && total.compareTo(amount) != 0) {
            fields.reject("cart.total", "cart.total must equal amount");
        }
        ObjectNode normalized = json.createObjectNode();
        normalized.set("items", items);
        normalized.put("subtotal", subtotal);
        normalized.put("shipping", JsonFields.normalize(shipping));
        normalized.put("tax", tax);
        normalized.put("total", total);
        return json.writeValueAsString(normalized);
    }

    private static ApiException validation(List<FieldError> errors) {
        FieldError first = errors.get(0);
        String code = first.field().equals("currency") ? currencyCode(first.message()) : "validation_failed";
        return new ApiException(org.springframework.http.HttpStatus.BAD_REQUEST, code, first.message(), errors);
    }

    private static String currencyCode(String message) {
        return switch (message) {
            case "Currency is required" -> "currency_required";
            case "Currency code must be uppercase" -> "currency_not_uppercase";
            case "Invalid currency code" -> "invalid_currency";
            default -> "validation_failed";
        };
    }
}
