package dev.cryptopay.subscriptions.plan;

import java.math.BigInteger;
import java.util.List;
import org.web3j.abi.FunctionEncoder;
import org.web3j.abi.datatypes.Address;
import org.web3j.abi.datatypes.DynamicBytes;
import org.web3j.abi.datatypes.DynamicStruct;
import org.web3j.abi.datatypes.Function;
import org.web3j.abi.datatypes.Utf8String;
import org.web3j.abi.datatypes.generated.Bytes32;
import org.web3j.abi.datatypes.generated.Uint256;
import org.web3j.abi.datatypes.generated.Uint32;
import org.web3j.abi.datatypes.generated.Uint64;
import org.web3j.utils.Numeric;

/**
 * The call data a wallet sends to enrol or to leave, ABI-encoded here so that any wallet can send it without an ABI
 * library: the ERC-20 {@code approve} of the subscription contract, and the contract's pinned
 * {@code subscribe((address,address,address,uint256,string,string,uint64,uint64,uint64,uint32,uint64,uint256),bytes,bytes32,uint64)}
 * and {@code cancel(bytes32)}.
 */
public final class SubscriptionContractCalls {

    private SubscriptionContractCalls() {}

    /** {@code approve(spender, amount)} of an ERC-20. */
    public static String approve(String spender, BigInteger amount) {
        return FunctionEncoder.encode(
                new Function("approve", List.of(new Address(spender), new Uint256(amount)), List.of()));
    }

    /**
     * {@code subscribe(plan, merchantSig, ref, endsAt)}.
     *
     * @param merchantSig the merchant's 65-byte signature, 0x-hex
     * @param ref the invitation's 32-byte reference, 0x-hex
     * @param endsAt when billing ends (Unix seconds), 0 for never
     */
    public static String subscribe(PlanTerms terms, String merchantSig, String ref, long endsAt) {
        return FunctionEncoder.encode(new Function(
                "subscribe",
                List.of(
                        plan(terms),
                        new DynamicBytes(Numeric.hexStringToByteArray(merchantSig)),
                        new Bytes32(Numeric.hexStringToByteArray(ref)),
                        new Uint64(endsAt)),
                List.of()));
    }

    /** {@code cancel(id)}: the subscription's subscriber or its plan's merchant ends it on chain. */
    public static String cancel(String subscriptionId) {
        return FunctionEncoder.encode(
                new Function("cancel", List.of(new Bytes32(Numeric.hexStringToByteArray(subscriptionId))), List.of()));
    }

    /** The {@code Plan} tuple: the signed terms in signing order. */
    static DynamicStruct plan(PlanTerms terms) {
        return new DynamicStruct(
                new Address(terms.merchant()),
                new Address(terms.destination()),
                new Address(terms.token()),
                new Uint256(terms.amount()),
                new Utf8String(terms.currency()),
                new Utf8String(terms.value()),
                new Uint64(terms.interval()),
                new Uint64(terms.trialPeriod()),
                new Uint64(terms.maxArrears()),
                new Uint32(terms.autoCancelAfterMissed()),
                new Uint64(terms.subscribeDeadline()),
                new Uint256(terms.planNonce()));
    }
}
