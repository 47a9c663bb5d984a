package dev.cryptopay.subscriptions.plan;

import dev.cryptopay.auth.Mode;
import dev.cryptopay.service.error.ApiException;
import dev.cryptopay.subscriptions.config.SubscriptionsProperties;
import dev.cryptopay.subscriptions.network.Network;
import dev.cryptopay.subscriptions.network.ReferenceData;
import dev.cryptopay.subscriptions.network.Token;
import java.math.BigDecimal;
import java.math.BigInteger;

/**
 * A plan request placed on the reference data: its network (named, or the mode's default), the subscription
 * contract there, the token it bills in, the signed terms and what one period bills in base units.
 */
public record ResolvedPlan(
        PlanRequest request, Network network, String contract, Token token, PlanTerms terms, BigInteger billedAmount) {

    /** The longest value text the contract reads (its {@code _units}). */
    static final int MAX_VALUE_CHARS = 78;

    /** Resolves the request; the nonce is the request's, or {@code nonce} when it has none. */
    public static ResolvedPlan of(
            PlanRequest request, ReferenceData reference, SubscriptionsProperties properties, Mode mode) {
        Network network = network(request, reference, properties, mode);
        String contract = properties
                .contract(network.chainId())
                .orElseThrow(() -> ApiException.invalidField(
                        "network_unavailable",
                        "network_id",
                        "Subscriptions are not available on " + network.name() + " yet: no subscription contract"));
        Token token;
        BigInteger billed;
        if (request.token() != null) {
            token = reference
                    .token(network.id(), request.token())
                    .orElseThrow(() -> ApiException.invalidField(
                            "unsupported_token",
                            "token",
                            "token is not a supported token on " + network.name() + " (supported: "
                                    + String.join(", ", reference.currencyCodes(network.id())) + ")"));
            billed = request.amount();
        } else {
            token = reference
                    .tokenOfCurrency(network.id(), request.currency())
                    .orElseThrow(() -> ApiException.invalidField(
                            "invalid_currency",
                            "currency",
                            "currency " + request.currency() + " cannot be billed on " + network.name()
                                    + " (supported: " + String.join(", ", reference.currencyCodes(network.id()))
                                    + ")"));
            billed = billedByValue(request.valueText(), token);
        }
        if (request.currencyId() != null && !request.currencyId().equals(token.currencyId())) {
            throw ApiException.invalidField(
                    "invalid_currency",
                    "currency_id",
                    "currency_id is not the currency of the plan (" + token.currencyCode() + ")");
        }
        PlanTerms terms = new PlanTerms(
                request.merchant(),
                request.destination(),
                request.token() != null ? token.contractAddress() : Addresses.ZERO,
                request.token() != null ? request.amount() : BigInteger.ZERO,
                request.token() != null ? "" : request.currency(),
                request.token() != null ? "" : request.valueText(),
                request.interval(),
                request.trialPeriod(),
                request.maxArrears(),
                request.autoCancelAfterMissed(),
                request.subscribeDeadline(),
                request.planNonce() == null ? 0 : request.planNonce());
        return new ResolvedPlan(request, network, contract, token, terms, billed);
    }

    /**
     * What a value plan bills a period, by the contract's own rule for the signed text (its {@code _units}), so that
     * the service never signs a value the contract refuses: digits with at most one point between digits (the field's
     * pattern), at most {@value #MAX_VALUE_CHARS} characters, no more fraction digits than the token has decimals —
     * written ones count, zeros too ("10.500000000" has nine) — and a result that fits a uint256.
     */
    static BigInteger billedByValue(String text, Token token) {
        int point = text.indexOf('.');
        int fractionDigits = point < 0 ? 0 : text.length() - point - 1;
        if (fractionDigits > token.decimals()) {
            throw ApiException.invalidField(
                    "validation_failed",
                    "value",
                    "value has more decimal places than " + token.currencyCode() + " has (" + token.decimals() + "): "
                            + fractionDigits + " written");
        }
        if (text.length() > MAX_VALUE_CHARS) {
            throw ApiException.invalidField(
                    "validation_failed", "value", "value is longer than " + MAX_VALUE_CHARS + " characters");
        }
        BigInteger billed =
                new BigDecimal(text).movePointRight(token.decimals()).toBigIntegerExact();
        if (billed.bitLength() > 256) {
            throw ApiException.invalidField(
                    "validation_failed", "value", "value is too large: a period must fit a uint256 of base units");
        }
        return billed;
    }

    public ResolvedPlan withPlanNonce(long nonce) {
        return new ResolvedPlan(request, network, contract, token, terms.withPlanNonce(nonce), billedAmount);
    }

    public PlanTypedData typedData() {
        return PlanTypedData.of(terms, network.chainId(), contract);
    }

    private static Network network(
            PlanRequest request, ReferenceData reference, SubscriptionsProperties properties, Mode mode) {
        if (request.networkId() == null) {
            long chainId = properties.defaultChain().of(mode);
            return reference
                    .networkByChainId(chainId)
                    .orElseThrow(() -> new IllegalStateException("subscriptions.default-chain." + mode.wireName()
                            + " = " + chainId + " is not a network of the reference data"));
        }
        Network network = reference
                .network(request.networkId())
                .orElseThrow(() -> ApiException.invalidField(
                        "invalid_network", "network_id", "network_id is not a known network"));
        if (!network.active()) {
            throw ApiException.invalidField(
                    "invalid_network", "network_id", network.name() + " is not accepting new plans");
        }
        if (network.testnet() != (mode == Mode.TEST)) {
            throw ApiException.invalidField(
                    "invalid_network",
                    "network_id",
                    network.testnet()
                            ? network.name() + " is a test network: use a test-mode API key"
                            : network.name() + " is a main network: test-mode plans use a test network");
        }
        return network;
    }
}
