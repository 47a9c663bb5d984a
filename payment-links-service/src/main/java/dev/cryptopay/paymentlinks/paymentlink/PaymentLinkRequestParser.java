package dev.cryptopay.paymentlinks.paymentlink;

import dev.cryptopay.service.money.Amounts;
import dev.cryptopay.service.request.BoolField;
import dev.cryptopay.service.request.DecimalField;
import dev.cryptopay.service.request.Field;
import dev.cryptopay.service.request.JsonBody;
import dev.cryptopay.service.request.ObjectField;
import dev.cryptopay.service.request.TextField;
import dev.cryptopay.service.request.TimestampField;
import dev.cryptopay.service.request.Violations;
import dev.cryptopay.service.request.WholeField;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Validates a create request field by field. The currency messages are the interface's own
 * ({@code Currency is required}, {@code Currency code must be uppercase}, {@code Invalid currency code}); every
 * other rule names its field. All problems are reported together; the response message is the first one.
 */
public final class PaymentLinkRequestParser {

    static final TextField PAYMENT_NAME =
            Field.string("payment_name").required().length(1, 100);
    static final DecimalField AMOUNT = Field.money("amount").required();
    static final TextField DESCRIPTION = Field.string("description").length(0, 1000);
    static final TimestampField EXPIRES_AT = Field.timestamp("expires_at");
    static final WholeField MAX_USES = Field.integer("max_uses").range(1, Integer.MAX_VALUE);
    static final TextField CUSTOMER_ID = Field.string("customer_id").length(1, 100);
    static final TextField CUSTOMER_NAME = Field.string("customer_name").length(1, 100);
    static final TextField CUSTOMER_EMAIL = Field.email("customer_email");
    static final TextField PRODUCT_NAME = Field.string("product_name").length(1, 200);
    static final TextField PRODUCT_DESCRIPTION =
            Field.string("product_description").length(0, 1000);
    static final TextField ORDER_ID = Field.string("order_id").length(1, 100);
    static final BoolField AUTO_FILL = Field.bool("auto_fill");
    static final TextField SUCCESS_URL = Field.url("success_url").length(1, 500);
    static final TextField CANCEL_URL = Field.url("cancel_url").length(1, 500);
    static final ObjectField WEBHOOK_METADATA = Field.object("webhook_metadata");
    static final TextField CHECKOUT_MODE =
            Field.string("checkout_mode").length(1, 20).oneOf(List.of("hosted", "embedded"));
    static final TextField ORIGIN = Field.url("origin").length(1, 500);
    static final ObjectField CART = Field.object("cart");

    /** Read by hand rather than as a Field, for the interface's own messages and problem codes. */
    static final String CURRENCY = "currency";

    static final List<String> FIELDS = Field.names(
            CURRENCY,
            PAYMENT_NAME,
            AMOUNT,
            DESCRIPTION,
            EXPIRES_AT,
            MAX_USES,
            CUSTOMER_ID,
            CUSTOMER_NAME,
            CUSTOMER_EMAIL,
            PRODUCT_NAME,
            PRODUCT_DESCRIPTION,
            CART,
            ORDER_ID,
            AUTO_FILL,
            SUCCESS_URL,
            CANCEL_URL,
            WEBHOOK_METADATA,
            CHECKOUT_MODE,
            ORIGIN);
    static final int MAX_METADATA_BYTES = 16 * 1024;

    private static final TextField ITEM_NAME = Field.string("name").required().length(1, 200);
    private static final TextField ITEM_PRODUCT_ID = Field.string("product_id").length(1, 100);
    private static final WholeField ITEM_QUANTITY =
            Field.integer("quantity").required().range(1, Integer.MAX_VALUE);
    private static final DecimalField ITEM_UNIT_PRICE =
            Field.money("unit_price").required().allowZero();
    private static final DecimalField ITEM_TOTAL =
            Field.money("total").required().allowZero();
    private static final DecimalField CART_SUBTOTAL =
            Field.money("subtotal").required().allowZero();
    private static final DecimalField CART_SHIPPING = Field.money("shipping").allowZero();
    private static final DecimalField CART_TAX = Field.money("tax").required().allowZero();
    private static final DecimalField CART_TOTAL =
            Field.money("total").required().allowZero();

    private static final List<String> ITEM_FIELDS =
            Field.names(ITEM_NAME, ITEM_PRODUCT_ID, ITEM_QUANTITY, ITEM_UNIT_PRICE, ITEM_TOTAL);
    /** The items array is checked by hand, item by item. */
    private static final String CART_ITEMS = "items";

    private static final List<String> CART_FIELDS =
            Field.names(CART_ITEMS, CART_SUBTOTAL, CART_SHIPPING, CART_TAX, CART_TOTAL);

    private PaymentLinkRequestParser() {}

    /** Parses the raw body; {@code supportedCurrencies} are the codes links may be created in. */
    public static NewPaymentLink parse(JsonMapper json, String body, Set<String> supportedCurrencies, Instant now) {
        JsonNode root = JsonBody.object(json, body);
        Violations violations = new Violations();
        violations.rejectUnknown(root, "", FIELDS);

        String paymentName = PAYMENT_NAME.read(root, violations);
        BigDecimal amount = AMOUNT.read(root, violations);
        String currency = currency(root, violations, supportedCurrencies);
        String description = DESCRIPTION.read(root, violations);
        Instant expiresAt = EXPIRES_AT.read(root, violations);
        if (expiresAt != null && !expiresAt.isAfter(now)) {
            violations.reject("expires_at", "expires_at must be in the future");
        }
        Integer maxUses = MAX_USES.read(root, violations);
        String customerId = CUSTOMER_ID.read(root, violations);
        String customerName = CUSTOMER_NAME.read(root, violations);
        String customerEmail = CUSTOMER_EMAIL.read(root, violations);
        String productName = PRODUCT_NAME.read(root, violations);
        String productDescription = PRODUCT_DESCRIPTION.read(root, violations);
        String orderId = ORDER_ID.read(root, violations);
        Boolean autoFill = AUTO_FILL.read(root, violations);
        String successUrl = SUCCESS_URL.read(root, violations);
        String cancelUrl = CANCEL_URL.read(root, violations);
        String metadata = metadata(json, root, violations);
        String checkoutMode = CHECKOUT_MODE.read(root, violations);
        String origin = ORIGIN.read(root, violations);
        JsonNode cartNode = CART.read(root, violations);
        String cart = cartNode == null ? null : cart(json, cartNode, amount, violations);

        violations.throwIfAny();
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

    /** The interface's own currency messages, each with its own problem code. */
    private static String currency(JsonNode root, Violations violations, Set<String> supported) {
        JsonNode value = root.get(CURRENCY);
        if (value == null
                || value.isNull()
                || (value.isString() && value.asString().isBlank())) {
            violations.reject("currency_required", "currency", "Currency is required");
            return null;
        }
        if (!value.isString()) {
            violations.reject("currency", "Currency must be a string");
            return null;
        }
        String code = value.asString();
        if (!code.equals(code.toUpperCase(Locale.ROOT))) {
            violations.reject("currency_not_uppercase", "currency", "Currency code must be uppercase");
            return null;
        }
        if (code.length() < 3 || code.length() > 10 || !supported.contains(code)) {
            violations.reject("invalid_currency", "currency", "Invalid currency code");
            return null;
        }
        return code;
    }

    /** Free-form JSON kept as given, up to 16 KB. */
    private static String metadata(JsonMapper json, JsonNode root, Violations violations) {
        JsonNode node = WEBHOOK_METADATA.read(root, violations);
        if (node == null) {
            return null;
        }
        String text = json.writeValueAsString(node);
        if (text.getBytes(StandardCharsets.UTF_8).length > MAX_METADATA_BYTES) {
            violations.reject("webhook_metadata", "webhook_metadata must be at most 16 KB of JSON");
            return null;
        }
        return text;
    }

    /**
     * Checks the cart's arithmetic exactly (decimal, not floating point) and returns it normalised with shipping
     * defaulted to 0. Decision: a cart whose total differs from the link amount is refused, because the customer
     * would otherwise see one price and be charged another.
     */
    private static String cart(JsonMapper json, JsonNode cart, BigDecimal amount, Violations violations) {
        int errorsBefore = violations.count();
        violations.rejectUnknown(cart, "cart", CART_FIELDS);
        ArrayNode items = json.createArrayNode();
        BigDecimal itemsSum = BigDecimal.ZERO;
        JsonNode itemsNode = cart.get(CART_ITEMS);
        if (itemsNode == null || itemsNode.isNull()) {
            violations.reject("cart.items", "cart.items is required");
        } else if (!itemsNode.isArray() || itemsNode.isEmpty()) {
            violations.reject("cart.items", "cart.items must be an array with at least one item");
        } else {
            for (int i = 0; i < itemsNode.size(); i++) {
                String path = "cart.items[" + i + "]";
                JsonNode item = itemsNode.get(i);
                if (!item.isObject()) {
                    violations.reject(path, path + " must be an object");
                    continue;
                }
                violations.rejectUnknown(item, path, ITEM_FIELDS);
                String name = ITEM_NAME.read(item, path + ".name", violations);
                String productId = ITEM_PRODUCT_ID.read(item, path + ".product_id", violations);
                Integer quantity = ITEM_QUANTITY.read(item, path + ".quantity", violations);
                BigDecimal unitPrice = ITEM_UNIT_PRICE.read(item, path + ".unit_price", violations);
                BigDecimal total = ITEM_TOTAL.read(item, path + ".total", violations);
                if (quantity != null && unitPrice != null && total != null) {
                    if (unitPrice.multiply(BigDecimal.valueOf(quantity)).compareTo(total) != 0) {
                        violations.reject(path + ".total", path + ".total must equal quantity × unit_price");
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
        BigDecimal subtotal = CART_SUBTOTAL.read(cart, "cart.subtotal", violations);
        BigDecimal shipping = CART_SHIPPING.read(cart, "cart.shipping", violations);
        BigDecimal tax = CART_TAX.read(cart, "cart.tax", violations);
        BigDecimal total = CART_TOTAL.read(cart, "cart.total", violations);
        if (shipping == null) {
            shipping = BigDecimal.ZERO;
        }
        if (violations.count() > errorsBefore) {
            return null;
        }
        if (subtotal.compareTo(itemsSum) != 0) {
            violations.reject("cart.subtotal", "cart.subtotal must equal the sum of the item totals");
        }
        if (total.compareTo(subtotal.add(shipping).add(tax)) != 0) {
            violations.reject("cart.total", "cart.total must equal subtotal + shipping + tax");
        } else if (amount != null && total.compareTo(amount) != 0) {
            violations.reject("cart.total", "cart.total must equal amount");
        }
        ObjectNode normalized = json.createObjectNode();
        normalized.set("items", items);
        normalized.put("subtotal", subtotal);
        normalized.put("shipping", Amounts.normalize(shipping));
        normalized.put("tax", tax);
        normalized.put("total", total);
        return json.writeValueAsString(normalized);
    }
}
