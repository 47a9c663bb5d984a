package dev.cryptopay.testsupport.chain;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.List;
import java.util.Locale;
import org.web3j.abi.FunctionEncoder;
import org.web3j.abi.TypeReference;
import org.web3j.abi.datatypes.Address;
import org.web3j.abi.datatypes.DynamicBytes;
import org.web3j.abi.datatypes.DynamicStruct;
import org.web3j.abi.datatypes.Function;
import org.web3j.abi.datatypes.Utf8String;
import org.web3j.abi.datatypes.generated.Bytes32;
import org.web3j.abi.datatypes.generated.Uint256;
import org.web3j.abi.datatypes.generated.Uint32;
import org.web3j.abi.datatypes.generated.Uint64;
import org.web3j.crypto.ECKeyPair;
import org.web3j.crypto.Hash;
import org.web3j.crypto.Keys;
import org.web3j.crypto.Sign;
import org.web3j.protocol.core.Request;
import org.web3j.protocol.core.Response;
import org.web3j.protocol.core.methods.response.Log;
import org.web3j.protocol.core.methods.response.TransactionReceipt;
import org.web3j.protocol.http.HttpService;
import org.web3j.utils.Numeric;

/**
 * Drives the dev chain's {@code CryptopaySubscriptions} (at {@link DevChain#SUBSCRIPTION_CONTRACT}) the way
 * test-support's {@code SubscriptionContractTest} does (plans signed by the merchant's key, subscribe, collect, cancel,
 * revokePlan), from fresh accounts, so tests on the shared chain never see each other's subscriptions. A plan is
 * signed over the digest the contract itself computes ({@code planDigest}). Used by chain-watcher's scanner and keeper
 * tests and by the keeper benchmark (bench).
 */
public final class SubscriptionContract {

    public static final String ADDRESS = DevChain.SUBSCRIPTION_CONTRACT.toLowerCase(Locale.ROOT);
    public static final String SUBSCRIBED =
            event("Subscribed(bytes32,bytes32,address,address,address,address,uint256,uint64,uint64,bytes32)");
    public static final String CHARGED = event("Charged(bytes32,bytes32,address,uint64,uint64,uint256)");
    public static final String MISSED = event("Missed(bytes32,bytes32,address,uint64,uint32,uint32)");
    public static final String CANCELLED = event("Cancelled(bytes32,bytes32,address,address,uint8)");
    public static final String PLAN_REVOKED = event("PlanRevoked(address,bytes32)");
    public static final BigInteger PERIOD_AMOUNT = DevTokens.USDC.baseUnits("10");
    public static final long INTERVAL = 30L * 24 * 3600;
    /** The contract's MIN_GRACE: a plan with maxArrears 0 gets it. */
    public static final long GRACE = 3600;

    private static final SecureRandom RANDOM = new SecureRandom();

    private final DevChain chain;
    private final HttpService rpc;

    public SubscriptionContract(DevChain chain) {
        this.chain = chain;
        this.rpc = new HttpService(chain.rpcUrl());
    }

    /** An account of its own key, holding 100 ETH, that the node sends from (anvil_impersonateAccount). */
    public record Account(String address, ECKeyPair key) {

        /** The account as an indexed topic (lower-case). */
        public String topic() {
            return Numeric.toHexStringWithPrefixZeroPadded(Numeric.toBigInt(address), 64);
        }
    }

    /** The plan as the merchant signs it (§9's SubscriptionPlan): an amount plan of {@link #PERIOD_AMOUNT}. */
    public record Plan(
            Account merchant,
            String destination,
            String token,
            long trialPeriod,
            long autoCancelAfterMissed,
            BigInteger planNonce) {

        DynamicStruct struct() {
            return new DynamicStruct(
                    new Address(merchant.address()),
                    new Address(destination),
                    new Address(token),
                    new Uint256(PERIOD_AMOUNT),
                    new Utf8String(""),
                    new Utf8String(""),
                    new Uint64(INTERVAL),
                    new Uint64(trialPeriod),
                    new Uint64(0),
                    new Uint32(autoCancelAfterMissed),
                    new Uint64(0),
                    new Uint256(planNonce));
        }
    }

    public Account freshAccount() {
        ECKeyPair key;
        try {
            key = Keys.createEcKeyPair(RANDOM);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
        String address = Keys.toChecksumAddress(Keys.getAddress(key));
        anvil("anvil_setBalance", address, Numeric.encodeQuantity(new BigInteger("100000000000000000000")));
        anvil("anvil_impersonateAccount", address);
        return new Account(address, key);
    }

    /** A USDC plan without a trial of a fresh merchant paying to a fresh destination, with a fresh nonce. */
    public Plan plan(long autoCancelAfterMissed) {
        return plan(DevTokens.USDC.address(), 0, autoCancelAfterMissed);
    }

    /** A plan of {@code token} (base units as USDC's) with a trial of {@code trialPeriod} seconds. */
    public Plan plan(String token, long trialPeriod, long autoCancelAfterMissed) {
        byte[] destination = new byte[20];
        RANDOM.nextBytes(destination);
        return new Plan(
                freshAccount(),
                Numeric.toHexString(destination),
                token,
                trialPeriod,
                autoCancelAfterMissed,
                new BigInteger(64, RANDOM));
    }

    /** A fresh subscriber holding {@code periods} periods of USDC and approving exactly that to the contract. */
    public Account subscriber(int periods) {
        Account subscriber = freshAccount();
        allow(subscriber, DevTokens.USDC.address(), periods);
        return subscriber;
    }

    /**
     * Mints {@code periods} periods of {@code token} (a dev chain token, or one whose mint is open) to the subscriber,
     * who approves exactly that to the contract (replacing what it approved before).
     */
    public void allow(Account subscriber, String token, int periods) {
        BigInteger amount = PERIOD_AMOUNT.multiply(BigInteger.valueOf(periods));
        chain.send(
                DevChain.DEPLOYER,
                token,
                new Function("mint", List.of(new Address(subscriber.address()), new Uint256(amount)), List.of()));
        chain.send(
                subscriber.address(),
                token,
                new Function("approve", List.of(new Address(ADDRESS), new Uint256(amount)), List.of()));
    }

    /** Subscribes (without a trial the first period is pulled at once: Subscribed and Charged). */
    public TransactionReceipt subscribe(Account subscriber, Plan plan, String ref) {
        return chain.sendTransaction(
                subscriber.address(), ADDRESS, subscribeData(plan, sign(plan), ref), BigInteger.ZERO);
    }

    /** The merchant's signature of the plan, over the digest the contract computes ({@code planDigest}). */
    public byte[] sign(Plan plan) {
        byte[] digest = bytes32(new Function("planDigest", List.of(plan.struct()), bytes32Output()));
        Sign.SignatureData signature = Sign.signMessage(digest, plan.merchant().key(), false);
        byte[] bytes = new byte[65];
        System.arraycopy(signature.getR(), 0, bytes, 0, 32);
        System.arraycopy(signature.getS(), 0, bytes, 32, 32);
        bytes[64] = signature.getV()[0];
        return bytes;
    }

    /**
     * The calldata of {@code subscribe(plan, signature, ref, 0)}, for a caller that sends many without waiting for each
     * receipt; {@code ref} is the platform's subscriber id, hashed as the service does.
     */
    public static String subscribeData(Plan plan, byte[] signature, String ref) {
        byte[] refHash = Hash.sha3(("cryptopay.subscriber:" + ref).getBytes(StandardCharsets.UTF_8));
        return FunctionEncoder.encode(new Function(
                "subscribe",
                List.of(plan.struct(), new DynamicBytes(signature), new Bytes32(refHash), new Uint64(0)),
                bytes32Output()));
    }

    public TransactionReceipt collect(String from, byte[] id) {
        return send(from, new Function("collect", List.of(new Bytes32(id)), List.of()));
    }

    public TransactionReceipt cancel(Account by, byte[] id) {
        return send(by.address(), new Function("cancel", List.of(new Bytes32(id)), List.of()));
    }

    public TransactionReceipt revoke(Plan plan) {
        return send(
                plan.merchant().address(), new Function("revokePlan", List.of(new Bytes32(planId(plan))), List.of()));
    }

    public byte[] planId(Plan plan) {
        return bytes32(new Function("planId", List.of(plan.struct()), bytes32Output()));
    }

    /** The subscription id of a subscribe (topic 1 of its Subscribed). */
    public static byte[] subscriptionId(TransactionReceipt subscribed) {
        return Numeric.hexStringToByteArray(contractLogs(subscribed).stream()
                .filter(log -> log.getTopics().get(0).equals(SUBSCRIBED))
                .findFirst()
                .orElseThrow()
                .getTopics()
                .get(1));
    }

    /** The contract's logs in a receipt, in log index order. */
    public static List<Log> contractLogs(TransactionReceipt receipt) {
        return receipt.getLogs().stream()
                .filter(log -> log.getAddress().equalsIgnoreCase(ADDRESS))
                .toList();
    }

    private TransactionReceipt send(String from, Function function) {
        return chain.sendTransaction(from, ADDRESS, FunctionEncoder.encode(function), BigInteger.ZERO);
    }

    private byte[] bytes32(Function view) {
        return (byte[]) chain.call(ADDRESS, view).get(0).getValue();
    }

    private static List<TypeReference<?>> bytes32Output() {
        return List.of(new TypeReference<Bytes32>() {});
    }

    /** Calls a node method test-support's DevChain has no method for (anvil_*, evm_*) and answers its result. */
    public Object anvil(String method, Object... params) {
        try {
            Response<?> response = new Request<>(method, List.of(params), rpc, AnvilResponse.class).send();
            if (response.hasError()) {
                throw new IllegalStateException(
                        method + " failed: " + response.getError().getMessage());
            }
            return response.getResult();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String event(String signature) {
        return Hash.sha3String(signature);
    }

    /** An answer of an anvil_* method. */
    public static final class AnvilResponse extends Response<Object> {}
}
