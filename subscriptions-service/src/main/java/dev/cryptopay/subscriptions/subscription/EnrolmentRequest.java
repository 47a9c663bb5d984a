package dev.cryptopay.subscriptions.subscription;

import dev.cryptopay.service.request.BoolField;
import dev.cryptopay.service.request.Field;
import dev.cryptopay.service.request.JsonBody;
import dev.cryptopay.service.request.TextField;
import dev.cryptopay.service.request.TimestampField;
import dev.cryptopay.service.request.UnsignedField;
import dev.cryptopay.service.request.Violations;
import dev.cryptopay.subscriptions.plan.Addresses;
import java.math.BigInteger;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A {@code POST /public/subscriptions/link/} body: who enrols (the {@code subscriber_id} of an invitation, or of a
 * self-service sign-up that {@code GET /public/subscriber/prepare?subscription_plan_id=…} made), the customer's
 * details, the wallet, its on-chain subscribe transaction and the token approvals it made. {@code customer_id} is the
 * merchant's own reference: a customer's route never takes it.
 */
public record EnrolmentRequest(
        UUID planId,
        UUID subscriberId,
        Long onchainId,
        Instant subscribedAt,
        String customerName,
        String customerEmail,
        String walletAddress,
        String subscribeHash,
        List<Approval> approvals,
        Instant trialEndsAt,
        Instant expiresAt) {

    /**
     * One allowance the wallet granted: the token, how much (base units) and on which network; the optional
     * approval transaction, chain id and decimals are checked against the plan when given.
     */
    public record Approval(
            String approvalHash,
            String tokenAddress,
            String amountApproved,
            String networkName,
            Long chainId,
            Integer decimals) {

        BigInteger amount() {
            return new BigInteger(amountApproved);
        }
    }

    static final int MAX_APPROVALS = 10;
    static final Pattern TX_HASH = Pattern.compile("0x[0-9a-fA-F]{64}");

    static final TextField PLAN_ID = Field.uuid("subscription_plan_id").required();
    static final TextField SUBSCRIBER_ID = Field.uuid("subscriber_id");
    static final UnsignedField ONCHAIN_ID = Field.unsigned("subscription_onchain_id", 53);
    static final TimestampField SUBSCRIBED_AT = Field.timestamp("subscribed_at");
    /** Refused when present: named here so its answer says why rather than "unknown field". */
    static final TextField CUSTOMER_ID = Field.string("customer_id");

    static final TextField CUSTOMER_NAME =
            Field.string("customer_name").length(1, 100).satisfying(text -> !text.isBlank(), "must not be blank");
    static final TextField CUSTOMER_EMAIL = Field.email("customer_email");
    static final TextField WALLET_ADDRESS = Addresses.field("wallet_address").required();
    static final TextField SUBSCRIBE_HASH = transactionHash("subscribe_hash").required();
    static final UnsignedField OWED = Field.unsignedDigits("owed", 256);
    static final UnsignedField PAID_PERIODS = Field.unsigned("paid_periods", 31);
    static final BoolField LOCKED = Field.bool("locked");
    static final TimestampField TRIAL_ENDS_AT = Field.timestamp("trial_ends_at");
    static final TimestampField EXPIRES_AT = Field.timestamp("expires_at");
    static final TextField APPROVAL_HASH = transactionHash("approval_hash");
    static final TextField TOKEN_ADDRESS = Addresses.field("token_address").required();
    static final UnsignedField AMOUNT_APPROVED =
            Field.unsignedDigits("amount_approved", 256).positive().required();
    static final TextField NETWORK_NAME =
            Field.string("network_name").required().length(1, 100);
    static final UnsignedField CHAIN_ID = Field.unsigned("chain_id", 53).positive();
    static final UnsignedField DECIMALS = Field.unsigned("decimals", 8);

    /** The body's members: its fields and the {@code approvals} array, read element by element. */
    static final List<String> FIELDS = Field.names(
            "approvals",
            PLAN_ID,
            SUBSCRIBER_ID,
            ONCHAIN_ID,
            SUBSCRIBED_AT,
            TRIAL_ENDS_AT,
            WALLET_ADDRESS,
            SUBSCRIBE_HASH,
            OWED,
            PAID_PERIODS,
            LOCKED,
            CUSTOMER_ID,
            CUSTOMER_EMAIL,
            CUSTOMER_NAME,
            EXPIRES_AT);

    static final List<String> APPROVAL_FIELDS =
            Field.names(APPROVAL_HASH, TOKEN_ADDRESS, AMOUNT_APPROVED, NETWORK_NAME, CHAIN_ID, DECIMALS);

    public static EnrolmentRequest parse(JsonMapper json, String body, Instant now) {
        JsonNode root = JsonBody.object(json, body);
        Violations violations = new Violations();
        violations.rejectUnknown(root, "", FIELDS);
        String planId = PLAN_ID.read(root, violations);
        int beforeSubscriber = violations.count();
        String subscriberId = SUBSCRIBER_ID.read(root, violations);
        boolean subscriberMissing = subscriberId == null && violations.count() == beforeSubscriber;
        BigInteger onchainId = ONCHAIN_ID.read(root, violations);
        Instant subscribedAt = SUBSCRIBED_AT.read(root, violations);
        if (subscribedAt != null && subscribedAt.isAfter(now)) {
            violations.reject("subscribed_at", "subscribed_at must not be in the future");
        }
        if (subscriberMissing) {
            violations.reject(
                    "subscriber_id",
                    "subscriber_id is required: an invitation carries one; to sign up without one, ask GET"
                            + " /public/subscriber/prepare?subscription_plan_id=…&wallet_address=… for one before"
                            + " subscribing on chain (the subscription's ref names it)");
        }
        if (root.has("customer_id")) {
            violations.reject(
                    "customer_id",
                    "customer_id is the merchant's reference for its customer: it is set on the invitation by the"
                            + " merchant, never on a customer's route");
        }
        String customerName = CUSTOMER_NAME.read(root, violations);
        String customerEmail = CUSTOMER_EMAIL.read(root, violations);
        String wallet = WALLET_ADDRESS.read(root, violations);
        String subscribeHash = SUBSCRIBE_HASH.read(root, violations);
        // A new link starts owing nothing, with nothing paid and unlocked: those move with payments and the
        // merchant, never on a customer's word.
        BigInteger owed = OWED.read(root, violations);
        if (owed != null && owed.signum() != 0) {
            violations.reject("owed", "owed starts at \"0\"; payments and missed periods change it");
        }
        BigInteger paidPeriods = PAID_PERIODS.read(root, violations);
        if (paidPeriods != null && paidPeriods.signum() != 0) {
            violations.reject("paid_periods", "paid_periods starts at 0; recorded payments count it");
        }
        Boolean locked = LOCKED.read(root, violations);
        if (Boolean.TRUE.equals(locked)) {
            violations.reject("locked", "A new link cannot start locked; its merchant locks it");
        }
        List<Approval> approvals = approvals(root, violations);
        Instant trialEndsAt = TRIAL_ENDS_AT.read(root, violations);
        Instant expiresAt = EXPIRES_AT.read(root, violations);
        if (expiresAt != null && !expiresAt.isAfter(now)) {
            violations.reject("expires_at", "expires_at must be in the future");
        }
        violations.throwIfAny();
        return new EnrolmentRequest(
                UUID.fromString(planId),
                UUID.fromString(subscriberId),
                onchainId == null ? null : onchainId.longValueExact(),
                subscribedAt,
                customerName,
                customerEmail,
                Addresses.checksummed(wallet),
                subscribeHash.toLowerCase(Locale.ROOT),
                approvals,
                trialEndsAt,
                expiresAt);
    }

    private static TextField transactionHash(String name) {
        return Field.string(name).length(1, 100).matching(TX_HASH, "must be a 0x-prefixed 32-byte transaction hash");
    }

    private static List<Approval> approvals(JsonNode root, Violations violations) {
        JsonNode array = root.get("approvals");
        if (array == null || array.isNull()) {
            violations.reject("approvals", "approvals is required: at least one token approval");
            return List.of();
        }
        if (!array.isArray() || array.isEmpty() || array.size() > MAX_APPROVALS) {
            violations.reject("approvals", "approvals must be an array of 1-" + MAX_APPROVALS + " approvals");
            return List.of();
        }
        List<Approval> approvals = new ArrayList<>();
        for (int i = 0; i < array.size(); i++) {
            JsonNode approval = array.get(i);
            String path = "approvals[" + i + "]";
            if (!approval.isObject()) {
                violations.reject(path, path + " must be an object");
                continue;
            }
            violations.rejectUnknown(approval, path, APPROVAL_FIELDS);
            int before = violations.count();
            String hash = APPROVAL_HASH.read(approval, path + ".approval_hash", violations);
            String token = TOKEN_ADDRESS.read(approval, path + ".token_address", violations);
            BigInteger amount = AMOUNT_APPROVED.read(approval, path + ".amount_approved", violations);
            String network = NETWORK_NAME.read(approval, path + ".network_name", violations);
            BigInteger chainId = CHAIN_ID.read(approval, path + ".chain_id", violations);
            BigInteger decimals = DECIMALS.read(approval, path + ".decimals", violations);
            if (violations.count() == before) {
                approvals.add(new Approval(
                        hash == null ? null : hash.toLowerCase(Locale.ROOT),
                        Addresses.checksummed(token),
                        amount.toString(),
                        network,
                        chainId == null ? null : chainId.longValueExact(),
                        decimals == null ? null : decimals.intValueExact()));
            }
        }
        return approvals;
    }
}
