package dev.cryptopay.subscriptions.plan;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.web3j.crypto.StructuredDataEncoder;
import org.web3j.utils.Numeric;
import tools.jackson.databind.PropertyNamingStrategies;
import tools.jackson.databind.annotation.JsonNaming;
import tools.jackson.databind.json.JsonMapper;

/**
 * The EIP-712 typed data of a plan: what a wallet signs with {@code eth_signTypedData_v4}, and its hashes. The domain
 * is {@value #DOMAIN_NAME} version {@value #DOMAIN_VERSION} on the plan's chain, verified by the subscription
 * contract configured for that chain. Member names are the wallet's (camelCase), whatever the service's JSON style.
 */
@JsonNaming(PropertyNamingStrategies.LowerCamelCaseStrategy.class)
public record PlanTypedData(Map<String, List<Member>> types, String primaryType, Domain domain, Message message) {

    public static final String DOMAIN_NAME = "Cryptopay Subscriptions";
    public static final String DOMAIN_VERSION = "1";
    public static final String PRIMARY_TYPE = "SubscriptionPlan";

    private static final Map<String, List<Member>> TYPES = memberTypes();
    private static final JsonMapper WALLET_JSON = JsonMapper.builder().build();

    /** One member of a struct type. */
    public record Member(String name, String type) {}

    @JsonNaming(PropertyNamingStrategies.LowerCamelCaseStrategy.class)
    public record Domain(String name, String version, long chainId, String verifyingContract) {}

    /** The signed terms; integers as decimal strings, as wallets take uint values. */
    @JsonNaming(PropertyNamingStrategies.LowerCamelCaseStrategy.class)
    public record Message(
            String merchant,
            String destination,
            String token,
            String amount,
            String currency,
            String value,
            String interval,
            String trialPeriod,
            String maxArrears,
            String autoCancelAfterMissed,
            String subscribeDeadline,
            String planNonce) {}

    public static PlanTypedData of(PlanTerms terms, long chainId, String verifyingContract) {
        return of(
                new Message(
                        terms.merchant(),
                        terms.destination(),
                        terms.token(),
                        terms.amount().toString(),
                        terms.currency(),
                        terms.value(),
                        Long.toString(terms.interval()),
                        Long.toString(terms.trialPeriod()),
                        Long.toString(terms.maxArrears()),
                        Long.toString(terms.autoCancelAfterMissed()),
                        Long.toString(terms.subscribeDeadline()),
                        Long.toString(terms.planNonce())),
                chainId,
                verifyingContract);
    }

    /** Typed data of a message as given (integers of any size), e.g. one a wallet library produced. */
    public static PlanTypedData of(Message message, long chainId, String verifyingContract) {
        return new PlanTypedData(
                TYPES, PRIMARY_TYPE, new Domain(DOMAIN_NAME, DOMAIN_VERSION, chainId, verifyingContract), message);
    }

    /** The EIP-712 hash a wallet signs: keccak256(0x1901 ‖ domainSeparator ‖ hashStruct(message)), 0x-hex. */
    public String digest() {
        return Numeric.toHexString(encoder().hashStructuredData());
    }

    /** hashStruct(message): the terms' hash without the domain; the plan's id on the subscription contract. */
    @SuppressWarnings("unchecked")
    public String structHash() {
        StructuredDataEncoder encoder = encoder();
        return Numeric.toHexString(
                encoder.hashMessage(PRIMARY_TYPE, (HashMap<String, Object>) encoder.jsonMessageObject.getMessage()));
    }

    /** This typed data as the JSON text a wallet receives. */
    public String toJson() {
        return WALLET_JSON.writeValueAsString(this);
    }

    private StructuredDataEncoder encoder() {
        try {
            return new StructuredDataEncoder(toJson());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Map<String, List<Member>> memberTypes() {
        Map<String, List<Member>> types = new LinkedHashMap<>();
        types.put(
                "EIP712Domain",
                List.of(
                        new Member("name", "string"),
                        new Member("version", "string"),
                        new Member("chainId", "uint256"),
                        new Member("verifyingContract", "address")));
        types.put(
                PRIMARY_TYPE,
                List.of(
                        new Member("merchant", "address"),
                        new Member("destination", "address"),
                        new Member("token", "address"),
                        new Member("amount", "uint256"),
                        new Member("currency", "string"),
                        new Member("value", "string"),
                        new Member("interval", "uint64"),
                        new Member("trialPeriod", "uint64"),
                        new Member("maxArrears", "uint64"),
                        new Member("autoCancelAfterMissed", "uint32"),
                        new Member("subscribeDeadline", "uint64"),
                        new Member("planNonce", "uint256")));
        return java.util.Collections.unmodifiableMap(types);
    }
}
