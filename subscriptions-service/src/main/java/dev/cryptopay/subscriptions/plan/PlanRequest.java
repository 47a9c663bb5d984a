package dev.cryptopay.subscriptions.plan;

import dev.cryptopay.service.request.Field;
import dev.cryptopay.service.request.JsonBody;
import dev.cryptopay.service.request.TextField;
import dev.cryptopay.service.request.UnsignedField;
import dev.cryptopay.service.request.Violations;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.List;
import java.util.UUID;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A plan create (or typed-data) body, validated field by field but not yet resolved against the reference data.
 * Integers are bounded by their EVM types and, for the uint64/uint256 ones, by 2^53 - 1 so every JSON client reads
 * them back exactly.
 */
public record PlanRequest(
        UUID networkId,
        UUID currencyId,
        String merchant,
        String destination,
        String token,
        BigInteger amount,
        String currency,
        BigDecimal value,
        String valueText,
        long interval,
        long trialPeriod,
        long maxArrears,
        long autoCancelAfterMissed,
        long subscribeDeadline,
        Long planNonce,
        String merchantSig,
        String name,
        String description,
        String metadataUri,
        String kind) {

    static final int SAFE_INTEGER_BITS = 53;

    /**
     * The longest duration (interval, trial, grace, enrolment deadline): 100 years. Enrolment, payments and billing
     * add these to dates they store, which must stay within the years 1 to 9999; 2^53 - 1 seconds is 285 million
     * years.
     */
    static final long MAX_DURATION_SECONDS = 3_155_760_000L;

    static final String ADDRESS_RULE = Addresses.RULE;
    private static final Pattern DECIMAL = Pattern.compile("[0-9]{1,60}(\\.[0-9]{1,36})?");

    static final TextField NETWORK_ID = Field.uuid("network_id");
    static final TextField CURRENCY_ID = Field.uuid("currency_id");
    static final TextField MERCHANT = address("merchant").required();
    static final TextField DESTINATION = address("destination").required();
    static final TextField TOKEN = address("token");
    static final UnsignedField AMOUNT = Field.unsignedDigits("amount", 256).positive();
    static final TextField CURRENCY = Field.string("currency")
            .length(3, 10)
            .matching(Pattern.compile("[A-Z0-9]+"), "must be an upper-case currency code, e.g. USDC");
    static final TextField VALUE = Field.string("value")
            .length(1, ResolvedPlan.MAX_VALUE_CHARS)
            .matching(DECIMAL, "must be a decimal number as a string, e.g. \"9.99\"")
            .satisfying(text -> new BigDecimal(text).signum() > 0, "must be greater than 0");
    static final UnsignedField PERIOD = Field.unsigned("period", SAFE_INTEGER_BITS);
    static final UnsignedField INTERVAL = Field.unsigned("interval", SAFE_INTEGER_BITS);
    static final UnsignedField TRIAL_PERIOD = Field.unsigned("trial_period", SAFE_INTEGER_BITS);
    static final UnsignedField MAX_ARREARS = Field.unsigned("max_arrears", SAFE_INTEGER_BITS);
    static final UnsignedField AUTO_CANCEL_AFTER_MISSED = Field.unsigned("auto_cancel_after_missed", 32);
    static final UnsignedField SUBSCRIBE_DEADLINE = Field.unsigned("subscribe_deadline", SAFE_INTEGER_BITS);
    static final UnsignedField PLAN_NONCE = Field.unsigned("plan_nonce", SAFE_INTEGER_BITS);
    static final TextField MERCHANT_SIG =
            Field.string("merchant_sig").required().length(1, 200);
    static final TextField NAME =
            Field.string("name").length(1, 100).satisfying(text -> !text.isBlank(), "must not be blank");
    // Field specs are builders: a rule is declared once here, never added while reading a request.
    static final TextField NAME_REQUIRED = Field.string("name").required().length(1, 100);
    static final TextField DESCRIPTION = Field.string("description").length(0, 1000);
    static final TextField METADATA_URI = metadataUriField();
    static final TextField KIND = Field.string("kind").oneOf(List.of("amount", "value"));
    /** Required where it is read: in a PUT body, where it may be left out but never sent as null. */
    static final TextField STATUS_REQUIRED = Field.string("status").required().oneOf(PlanStatus.WIRE_NAMES);

    static final List<String> CREATE_FIELDS = Field.names(
            NETWORK_ID,
            CURRENCY_ID,
            MERCHANT,
            DESTINATION,
            TOKEN,
            AMOUNT,
            CURRENCY,
            VALUE,
            PERIOD,
            INTERVAL,
            TRIAL_PERIOD,
            MAX_ARREARS,
            AUTO_CANCEL_AFTER_MISSED,
            SUBSCRIBE_DEADLINE,
            PLAN_NONCE,
            MERCHANT_SIG,
            METADATA_URI,
            NAME,
            DESCRIPTION,
            KIND);

    /** A create body: merchant_sig and name are required. */
    public static PlanRequest forCreate(JsonMapper json, String body) {
        return parse(JsonBody.object(json, body), true);
    }

    /** A typed-data body: the create body without merchant_sig (ignored if sent); name is optional. */
    public static PlanRequest forSigning(JsonMapper json, String body) {
        return parse(JsonBody.object(json, body), false);
    }

    private static PlanRequest parse(JsonNode root, boolean create) {
        Violations violations = new Violations();
        violations.rejectUnknown(root, "", CREATE_FIELDS);
        String networkId = NETWORK_ID.read(root, violations);
        String currencyId = CURRENCY_ID.read(root, violations);
        String merchant = MERCHANT.read(root, violations);
        String destination = DESTINATION.read(root, violations);
        String token = TOKEN.read(root, violations);
        BigInteger amount = AMOUNT.read(root, violations);
        String currency = CURRENCY.read(root, violations);
        String value = VALUE.read(root, violations);
        pairs(root, violations);
        BigInteger period = PERIOD.read(root, violations);
        BigInteger interval = INTERVAL.read(root, violations);
        if (period != null && interval != null && !period.equals(interval)) {
            violations.reject("period", "period and interval are the same setting; send one, or both equal");
        }
        BigInteger billingInterval = interval != null ? interval : period;
        if (billingInterval != null
                && billingInterval.compareTo(BigInteger.valueOf(PlanTerms.MIN_INTERVAL_SECONDS)) < 0) {
            violations.reject(
                    interval != null ? "interval" : "period",
                    "interval must be at least " + PlanTerms.MIN_INTERVAL_SECONDS
                            + " seconds (an hour): the subscription contract bills no more often");
        } else if (billingInterval != null) {
            duration(interval != null ? "interval" : "period", billingInterval, violations);
        } else if (!present(root, "interval") && !present(root, "period")) {
            violations.reject("interval", "interval is required: the billing period in seconds, e.g. 2592000");
        }
        BigInteger trialPeriod = duration("trial_period", TRIAL_PERIOD.read(root, violations), violations);
        BigInteger maxArrears = duration("max_arrears", MAX_ARREARS.read(root, violations), violations);
        BigInteger autoCancel = AUTO_CANCEL_AFTER_MISSED.read(root, violations);
        BigInteger subscribeDeadline =
                duration("subscribe_deadline", SUBSCRIBE_DEADLINE.read(root, violations), violations);
        BigInteger planNonce = PLAN_NONCE.read(root, violations);
        String merchantSig = create ? MERCHANT_SIG.read(root, violations) : null;
        String name = (create ? NAME_REQUIRED : NAME).read(root, violations);
        String description = DESCRIPTION.read(root, violations);
        String metadataUri = METADATA_URI.read(root, violations);
        String kind = KIND.read(root, violations);
        if (kind != null && violations.isEmpty() && !kind.equals(token != null ? "amount" : "value")) {
            violations.reject(
                    "kind",
                    "kind " + kind + " does not match the billing model sent ("
                            + (token != null ? "token + amount is kind amount" : "currency + value is kind value")
                            + ")");
        }
        violations.throwIfAny();
        return new PlanRequest(
                networkId == null ? null : UUID.fromString(networkId),
                currencyId == null ? null : UUID.fromString(currencyId),
                Addresses.checksummed(merchant),
                Addresses.checksummed(destination),
                token == null ? null : Addresses.checksummed(token),
                amount,
                currency,
                value == null ? null : new BigDecimal(value),
                value,
                billingInterval.longValueExact(),
                orZero(trialPeriod),
                orZero(maxArrears),
                orZero(autoCancel),
                orZero(subscribeDeadline),
                planNonce == null ? null : planNonce.longValueExact(),
                merchantSig,
                name,
                description,
                metadataUri,
                kind);
    }

    /** Exactly one of token + amount (PlanByAmount) and currency + value (PlanByValue). */
    private static void pairs(JsonNode root, Violations violations) {
        boolean token = present(root, "token");
        boolean amount = present(root, "amount");
        boolean currency = present(root, "currency");
        boolean value = present(root, "value");
        if ((token || amount) && (currency || value)) {
            violations.reject(
                    "invalid_billing_model",
                    token || amount ? "token" : "currency",
                    "Send exactly one of token + amount or currency + value, not both");
        } else if (!token && !amount && !currency && !value) {
            violations.reject(
                    "invalid_billing_model", "token", "Send exactly one of token + amount or currency + value");
        } else if (token != amount) {
            violations.reject(
                    token ? "amount" : "token",
                    (token ? "amount" : "token") + " is required with " + (token ? "token" : "amount"));
        } else if (currency != value) {
            violations.reject(
                    currency ? "value" : "currency",
                    (currency ? "value" : "currency") + " is required with " + (currency ? "currency" : "value"));
        }
    }

    /** The duration, or null with a violation when it is longer than {@link #MAX_DURATION_SECONDS}. */
    private static BigInteger duration(String name, BigInteger seconds, Violations violations) {
        if (seconds != null && seconds.compareTo(BigInteger.valueOf(MAX_DURATION_SECONDS)) > 0) {
            violations.reject(name, name + " must be at most " + MAX_DURATION_SECONDS + " seconds (100 years)");
            return null;
        }
        return seconds;
    }

    private static boolean present(JsonNode root, String name) {
        return root.has(name) && !root.get(name).isNull();
    }

    private static long orZero(BigInteger value) {
        return value == null ? 0 : value.longValueExact();
    }

    private static TextField address(String name) {
        return Addresses.field(name);
    }

    private static TextField metadataUriField() {
        return Field.string("metadata_uri")
                .length(1, 2048)
                .satisfying(PlanRequest::isAbsoluteUri, "must be an absolute URI, e.g. https://… or ipfs://…");
    }

    static boolean isAbsoluteUri(String text) {
        try {
            URI uri = new URI(text);
            return uri.isAbsolute() && !text.isBlank();
        } catch (URISyntaxException e) {
            return false;
        }
    }
}
